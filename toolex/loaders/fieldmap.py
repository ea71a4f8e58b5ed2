"""``load plain --map``: files with their own field names load with options alone.

:data:`FIELDS` is every field the plain loader reads, per file, with what it means: the one list
``load plain --help`` prints and ``--map`` may target. A mapping ``TARGET=SOURCE`` says where a
field is in the user's records (SOURCE: a path or template, :mod:`toolex.loaders.jsonpath`):

* ``FILE.FIELD`` — a field of each record (``queries.text=user_request``);
* ``FILE`` — where the records are, when they are nested: a list inside a top-level object or
  inside each record (``items=nodes``; ``items=api_list`` makes every API of every tool record
  an item, and ``^.`` reaches the tool's fields);
* ``FILE.FIELD.SUB`` — a field of each element of a list field (``queries.labels.id=task``,
  ``queries.dependencies.from=source``), or a key of the documentation object built for each
  item (``items.doc.description=desc``).

Unmapped fields are read under their own names, so a file in the plain schema needs no option.
A mapping that finds nothing in any record of its file is an error (a misspelt source would
otherwise load as if the field were absent), and every error names the field as the file spells
it.
"""

from __future__ import annotations

import contextlib
import json
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from toolex.errors import InputError
from toolex.loaders.fields import Where
from toolex.loaders.jsonpath import MISSING, PathError, Source, locate, parse, resolve
from toolex.loaders.jsonpath import Path as JsonPath
from toolex.loaders.readers import (
    TopLevelObjectError,
    iter_dicts,
    iter_records,
    loads,
    read_json_value,
    record_lists,
)

# Every field the plain loader reads: {file: {field: what it is}}, in --help order.
FIELDS: dict[str, dict[str, str]] = {
    "items": {
        "id": "the item id (required)",
        "text": "a plain description (text or doc is required)",
        "doc": "the raw documentation object, rendered like every benchmark's",
        "name": "the tool's name (default: the doc's name, api_name or title)",
        "platform": "the provider that issues its ids and tokens (the platform rule's input)",
        "kind": "tool or skill (default: --kind)",
        "task": "the task or library part it belongs to",
        "category": "its category",
    },
    "queries": {
        "id": "the query id (required)",
        "text": "the request (required)",
        "instruction": "an instruction given with it",
        "task": "its task",
        "category": "its category",
        "dependencies": "the call chain of its annotated plan: a list of {from, to, value}, "
        "from/to a slot (0-based) or a judged item id, the producer's output passed into "
        "the consumer's parameters, value what is handed over",
        "labels": "without --qrels: its gold tools in plan order, each an item id or "
        "{id, relevance, from, outputs, arguments}; from lists the steps whose output this one "
        "takes (0-based positions in qrels, or item ids; a negative step, as in dep: [-1], "
        "means none); outputs names the placeholders a step's results are written as "
        '(Seal-Tools\' responses: ["API_call_0"]), arguments holds its parameter values, where '
        "an earlier step's placeholder is a call chain from that step, its value the "
        "parameter's name",
    },
    "qrels": {
        "query_id": "the query (required)",
        "item_id": "the gold item (required)",
        "relevance": "its grade (default 1)",
        "slot": "its 0-based position in the annotated combination (default: file order "
        "within the query); a query's k qrels fill slots 0..k-1",
    },
}
SUBFIELDS = {
    ("queries", "dependencies"): ("from", "to", "value"),
    ("queries", "labels"): ("id", "relevance", "from", "outputs", "arguments"),
}
NEEDED = {"labels": ("id",), "dependencies": ("from", "to")}  # sub-fields an element needs
DOC_KEY = ("items", "doc")  # items.doc.KEY: any key of the documentation object


def _refuse(message: str) -> InputError:
    return InputError(message, field="--map")


@dataclass
class FileMap:
    """The mappings of one file (``items``, ``queries`` or ``qrels``)."""

    name: str
    records: JsonPath | None = None  # where the records are (FILE=SOURCE)
    sources: dict[str, Source] = field(default_factory=dict)  # "text", "labels.id", "doc.name"
    hits: Counter[str] = field(default_factory=Counter)  # records each mapping found something in
    reading: str = field(default="--map", repr=False)  # the source being read, for errors

    def read(self, path: str | Path, what: str) -> Iterator[tuple[dict[str, object], Where]]:
        """The file's records as plain-schema dicts (only :data:`FIELDS` keys), each with where
        it is (``what``: what names a record, e.g. "item id"); after the last record, a
        mapping that found nothing is refused."""
        names = tuple((k, v.text) for k, v in self.sources.items())
        for value, line in self._values(Path(path)):
            for rec, ancestors, at in self._records(value, str(path), line):
                where = Where(str(path), line, at or None, "record" if at else what, names)
                try:
                    yield self._view(rec, ancestors), where
                except PathError as exc:
                    raise where.error(str(exc), self.reading) from None
        mapped: dict[str, Source] = {"": self.records} if self.records is not None else {}
        for target, source in (mapped | self.sources).items():
            if not self.hits[target]:
                full = f"{self.name}.{target}" if target else self.name
                raise InputError(
                    f"--map {full}={source.text} found nothing in any record: check the "
                    "spelling against the file (a field absent from every record needs no "
                    "mapping)",
                    path=str(path),
                    field=source.text,
                )

    def _values(self, path: Path) -> Iterator[tuple[object, int | None]]:
        """Top-level values: the records, or (with a records path) what holds them. A .json
        file holding one object (not JSON Lines) is one value, with no line. ``FILE=$`` (the
        records are the file's values) reads as no mapping does, so that a file holding one
        object is refused as such."""
        whole = self.records is not None and not self.records.steps and not self.records.up
        nested = self.records is not None and not whole
        if nested and path.suffix.lower() == ".json" and _one_object(path):
            yield read_json_value(path), None
            return
        records = iter_records(path)
        try:
            yield from (records if nested else iter_dicts(path, records))
        except TopLevelObjectError:
            if nested:  # one line holding the object (json.dump's way): what the path reads
                yield read_json_value(path), 1
                return
            raise self._top_level_object(path, whole) from None

    def _top_level_object(self, path: Path, whole: bool) -> InputError:
        """The reader's refusal of a file holding one object, worded for `load plain`: a list
        under a key of the object is read with ``--map FILE=KEY``, naming the keys that hold
        one; ``FILE=$`` named that whole object, which is one value, not a list of records."""
        keys = record_lists(read_json_value(path))
        shown = " or ".join(f"--map {self.name}={_key_path(k)}" for k in keys[:3])
        said = (
            f"--map {self.name}={self.records.text} names the file's whole top-level object: "
            f"one value, not a list of {self.name}"
            if whole and self.records is not None
            else "the file holds one top-level JSON object, not a list of records"
        )
        return InputError(
            f"{said}: "
            + (
                f"read the list under its key with {shown}"
                if keys
                else f"name where the records are with --map {self.name}=PATH (a JSON path to "
                "the list inside the object)"
            )
            + ("" if whole else ", or give the records as a JSON array or JSON Lines"),
            path=str(path),
            field=self.records.text if whole and self.records is not None else None,
        )

    def _records(
        self, value: object, path: str, line: int | None
    ) -> Iterator[tuple[dict[str, object], tuple[object, ...], str | None]]:
        if self.records is None:
            if isinstance(value, dict):  # always: _values read it through iter_dicts
                yield value, (), None
            return
        try:
            found = locate(self.records, value)
        except PathError as exc:
            raise InputError(str(exc), path=path, line=line, field=self.records.text) from None
        self.hits[""] += bool(found)
        for rec, at, ancestors in found:
            if not isinstance(rec, dict):
                raise InputError(
                    f"expected a JSON object, found {type(rec).__name__}",
                    path=path,
                    line=line,
                    record=at,
                )
            yield rec, ancestors, at

    def _view(self, rec: Mapping[str, object], ancestors: tuple[object, ...]) -> dict[str, object]:
        view: dict[str, object] = {}
        for name in FIELDS[self.name]:
            value = self._get(name, rec, ancestors)
            if value is not MISSING and value is not None:
                view[name] = value
        if any(k.startswith("doc.") for k in self.sources):
            view |= self._doc(view.get("doc"), rec, ancestors)
        for (file, name), subs in SUBFIELDS.items():
            if file == self.name and name in view:
                inner = (*ancestors, rec)  # ^ in a sub-field is the record the list is in
                view[name] = [self._element(name, e, subs, inner) for e in _as_list(view[name])]
        return view

    def _get(self, target: str, rec: object, ancestors: tuple[object, ...]) -> object:
        source = self.sources.get(target)
        if source is None:
            return rec.get(target.rpartition(".")[2], MISSING) if isinstance(rec, dict) else MISSING
        self.reading = source.text
        value = resolve(source, rec, ancestors)
        if value is not MISSING and value is not None:
            self.hits[target] += 1
        return value

    def _doc(
        self, base: object, rec: Mapping[str, object], ancestors: tuple[object, ...]
    ) -> dict[str, object]:
        """items.doc.KEY mappings: keys set on the doc (``items.doc``'s object, or a new one)."""
        if isinstance(base, str):
            with contextlib.suppress(ValueError):  # not JSON: get_doc refuses it, located
                base = loads(base)
        if base is not None and not isinstance(base, dict):
            return {"doc": base}
        doc = dict(base or {})
        for target in self.sources:
            if target.startswith("doc."):
                value = self._get(target, rec, ancestors)
                if value is not MISSING and value is not None:
                    doc[target[4:]] = value
        return {"doc": doc} if doc else {}

    def _element(
        self, name: str, element: object, subs: tuple[str, ...], ancestors: tuple[object, ...]
    ) -> object:
        """One qrel or edge as a dict of its sub-fields; a bare qrel is its item id. A
        mapped sub-field the element lacks is an error if the element needs it (a qrel's id,
        an edge's ends): the mapping, not the data, is then likely wrong."""
        if not isinstance(element, dict) and f"{name}.id" not in self.sources:
            return {"id": element} if name == "labels" else element
        out: dict[str, object] = {}
        for sub in subs:
            target = f"{name}.{sub}"
            value = self._get(target, element, ancestors)
            if value is not MISSING and value is not None:
                out[sub] = value
            elif target in self.sources and sub in NEEDED[name]:
                shown = json.dumps(element, ensure_ascii=False)
                shown = shown if len(shown) <= 80 else shown[:77] + "..."
                raise PathError(f"{self.sources[target].text!r} finds nothing in {shown}")
        return out or element  # nothing found: the element as given, for the error to show


def _key_path(key: str) -> str:
    """A key as a --map path: bare when the path syntax reads it so, else in brackets."""
    plain = key.strip() == key and not set(key) & set('.[]{}^$"')
    return key if plain else f"[{json.dumps(key)}]"


def _as_list(value: object) -> list[object]:
    return value if isinstance(value, list) else [value]


def _one_object(path: Path) -> bool:
    """A .json file whose first value is an object that does not end on its first line (so
    not JSON Lines, which Hugging Face writes under .json)."""
    with path.open("rb") as fh:
        for raw in fh:
            line = raw.decode("utf-8", errors="replace").strip().lstrip("\ufeff")
            if not line:
                continue
            if not line.startswith("{"):
                return False
            try:
                loads(line)
            except ValueError:
                return True
            return False
    return False


@dataclass(frozen=True)
class FieldMap:
    """Every ``--map`` of one load, by file."""

    files: dict[str, FileMap]

    @classmethod
    def parse(cls, specs: Sequence[str]) -> FieldMap:
        files = {name: FileMap(name) for name in FIELDS}
        for spec in specs:
            target, eq, text = spec.partition("=")
            if not eq or not target.strip():
                raise _refuse(f"{spec!r}: expected TARGET=SOURCE, e.g. queries.text=user_request")
            file, _, name = target.strip().partition(".")
            if file not in FIELDS:
                raise _refuse(f"{spec!r}: {file!r} is not a file; map items, queries or qrels")
            fmap = files[file]
            try:
                source = parse(text)
            except PathError as exc:
                raise _refuse(f"{spec!r}: {exc}") from None
            if not name:
                if fmap.records is not None:
                    raise _refuse(f"{spec!r}: where the {file} are is mapped twice")
                if not isinstance(source, JsonPath):
                    raise _refuse(f"{spec!r}: where the {file} are is a path, not a template")
                fmap.records = source
                continue
            _check_target(file, name, spec)
            if name in fmap.sources:
                raise _refuse(f"{spec!r}: {file}.{name} is mapped twice")
            fmap.sources[name] = source
        items = files["items"].sources
        if "text" in items and ("doc" in items or any(k.startswith("doc.") for k in items)):
            raise _refuse("map items.text or items.doc, not both: an item's documentation is one")
        return cls(files)

    def mapped(self, target: str) -> bool:
        file, _, name = target.partition(".")
        return name in self.files[file].sources


def _check_target(file: str, name: str, spec: str) -> None:
    top, _, sub = name.partition(".")
    if top not in FIELDS[file]:
        known = ", ".join(FIELDS[file])
        raise _refuse(f"{spec!r}: {file} have no field {top!r}; they read {known}")
    if not sub:
        return
    if (file, top) == DOC_KEY:
        return
    subs = SUBFIELDS.get((file, top))
    if subs is None:
        raise _refuse(f"{spec!r}: {file}.{top} is not a list of objects or a doc: no sub-field")
    if sub not in subs:
        raise _refuse(f"{spec!r}: each of {file}.{top} has {', '.join(subs)}, not {sub!r}")
