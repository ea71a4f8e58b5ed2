"""The library's equivalence graph: accepted verdicts as edges between items.

A verdict says "this candidate can stand in for the reference on this step"; across an
expansion's queries those verdicts link the library's items (sql/exports/40). Written as:

- Parquet, one row per accepted verdict (reference, candidate, the sub-query it holds under,
  judge, confidence, reason): the edge list with its context, nothing aggregated away;
- a graph file, one directed edge per (reference, candidate) pair (source = reference) with the
  number of steps and queries behind it and its distinct sub-queries (sql/exports/41, 42):
  GraphML (``.graphml``; Gephi, Cytoscape, networkx ``read_graphml``) or JSON node-link
  (``.json``; networkx ``node_link_graph``, d3).

``redundant_platforms`` answers "which providers in this library are redundant?": provider
pairs ranked by the equivalent endpoint pairs between them (sql/exports/43).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from xml.etree import ElementTree as ET

import pyarrow as pa
import pyarrow.parquet as pq

from toolex.exports.common import resolve
from toolex.exports.files import OutputRefused, check_output, output_file
from toolex.exports.queries import (
    GraphLink,
    GraphNode,
    PlatformPair,
    equivalence_edges_table,
    graph_links,
    graph_nodes,
    platform_pairs,
)
from toolex.store import Store

GRAPH_FORMATS = {".graphml": "graphml", ".json": "json"}
_GRAPHML_NS = "http://graphml.graphdrawing.org/xmlns"
_NODE_KEYS = {"name": "string", "platform": "string", "kind": "string", "degree": "int"}
_EDGE_KEYS = {
    "steps": "int",
    "queries": "int",
    "subqueries": "string",
    "judges": "string",
    "mean_confidence": "double",
}


def equivalence_edges(
    store: Store, benchmark: str | None = None, expansion: str = "default"
) -> pa.Table:
    """One row per accepted verdict, with its context (columns as in sql/exports/40)."""
    benchmark, expansion = resolve(store, benchmark, expansion)
    return equivalence_edges_table(store, benchmark, expansion)


def graph(
    store: Store, benchmark: str | None = None, expansion: str = "default"
) -> tuple[list[GraphNode], list[GraphLink]]:
    """(nodes, edges) of the equivalence graph: one edge per (reference, candidate) pair, as
    the node-link JSON holds them (columns as in sql/exports/41, 42)."""
    benchmark, expansion = resolve(store, benchmark, expansion)
    edges = equivalence_edges(store, benchmark, expansion)
    with store.registered("equivalence_edges", edges):
        nodes = graph_nodes(store, benchmark)
        links = graph_links(store)
    return nodes, links


def redundant_platforms(
    store: Store, benchmark: str | None = None, expansion: str = "default", min_pairs: int = 1
) -> list[PlatformPair]:
    """Provider pairs with equivalent endpoints, most first (columns as in sql/exports/43)."""
    benchmark, expansion = resolve(store, benchmark, expansion)
    edges = equivalence_edges(store, benchmark, expansion)
    with store.registered("equivalence_edges", edges):
        return platform_pairs(store, benchmark, min_pairs)


def export_equivalences(
    store: Store,
    path: str | Path,
    benchmark: str | None = None,
    expansion: str = "default",
    *,
    graph_path: str | Path | None = None,
) -> tuple[int, int]:
    """Write the edge rows to Parquet at ``path`` and, when asked, the graph to ``graph_path``
    (its format from the suffix: .graphml or .json). Returns (edge rows, graph edges)."""
    if graph_path is not None and graph_format(graph_path) is None:
        raise ValueError(f"graph file {graph_path}: name it .graphml or .json")
    if graph_path is not None and check_output(graph_path, store.path) == check_output(
        path, store.path
    ):
        raise OutputRefused(f"--graph {graph_path} is the --out file: name two files")
    edges = equivalence_edges(store, benchmark, expansion)
    nodes, links = graph(store, benchmark, expansion) if graph_path is not None else ([], [])
    with output_file(path, store.path) as temp:
        pq.write_table(edges, temp)
    if graph_path is None:
        return edges.num_rows, 0
    write_graph(
        graph_path,
        [n._asdict() for n in nodes],
        [link._asdict() for link in links],
        directed_from="reference",
        store=store.path,
    )
    return edges.num_rows, len(links)


def graph_format(path: str | Path) -> str | None:
    return GRAPH_FORMATS.get(Path(path).suffix.lower())


def write_graph(
    path: str | Path,
    nodes: Sequence[Mapping[str, object]],
    links: Sequence[Mapping[str, object]],
    *,
    directed_from: str,
    store: str | None = None,
) -> None:
    """Write nodes and links as GraphML or JSON node-link, by the file's suffix (never over
    the ``store``'s files, whole or not at all: toolex.exports.files)."""
    with output_file(path, store) as temp:
        _write_graph(temp, graph_format(path), nodes, links, directed_from)


def _write_graph(
    target: Path,
    kind: str | None,
    nodes: Sequence[Mapping[str, object]],
    links: Sequence[Mapping[str, object]],
    directed_from: str,
) -> None:
    description = f"toolex equivalence graph: an edge from the {directed_from} to its equivalent"
    if kind == "json":
        data = {
            "directed": True,
            "multigraph": False,
            "graph": {"description": description},
            "nodes": nodes,
            "links": links,
        }
        target.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
        return
    ET.register_namespace("", _GRAPHML_NS)
    root = ET.Element(f"{{{_GRAPHML_NS}}}graphml")
    for scope, keys in (("node", _NODE_KEYS), ("edge", _EDGE_KEYS)):
        for name, kind in keys.items():
            ET.SubElement(
                root,
                f"{{{_GRAPHML_NS}}}key",
                {"id": f"{scope[0]}_{name}", "for": scope, "attr.name": name, "attr.type": kind},
            )
    g = ET.SubElement(root, f"{{{_GRAPHML_NS}}}graph", {"id": "G", "edgedefault": "directed"})
    ET.SubElement(g, f"{{{_GRAPHML_NS}}}desc").text = description
    for node in nodes:
        el = ET.SubElement(g, f"{{{_GRAPHML_NS}}}node", {"id": str(node["id"])})
        _data(el, "n", _NODE_KEYS, node)
    for i, link in enumerate(links):
        el = ET.SubElement(
            g,
            f"{{{_GRAPHML_NS}}}edge",
            {"id": f"e{i}", "source": str(link["source"]), "target": str(link["target"])},
        )
        _data(el, "e", _EDGE_KEYS, _flat(link))
    ET.ElementTree(root).write(target, encoding="utf-8", xml_declaration=True)


def _flat(link: Mapping[str, object]) -> dict[str, object]:
    """A link with its lists joined: GraphML attributes are scalars."""
    return {k: " | ".join(map(str, v)) if isinstance(v, list) else v for k, v in link.items()}


def _data(el: ET.Element, prefix: str, keys: dict[str, str], values: Mapping[str, object]) -> None:
    for name in keys:
        value = values.get(name)
        if value is not None:
            ET.SubElement(el, f"{{{_GRAPHML_NS}}}data", {"key": f"{prefix}_{name}"}).text = str(
                value
            )
