"""Small libraries in the three shapes nobody here has seen, written for the tests (issue 32):

* ``rapidapi_beir``: RapidAPI endpoints in the BEIR layout (corpus text packing ToolBench's
  fields, a ``return_schema`` of response keys such as "success" and "messsage"), multi-tool
  requests in ToolBench's style where some tools are never asked for by name (the location id a
  hotel search needs), one request written all in lower case, one single-clause request two
  tools serve;
* ``generated``: a Seal-Tools-style generated library (camelCase names, ``parameters`` with
  "e.g." examples, ``responses``), long requests of three to five steps ("First, ... Then, ...
  Finally, ...") whose values belong to one step each, and call chains ("the id from the
  previous call");
* ``plugins``: a MetaTool-style plugin library (a plugin name and its description for the
  model), one tool per request.

Each is read by the loader a user would use (``load beir``, ``load plain``) and written to a
store, so the decomposer reads the documents as the store gives them; ``decomposed`` then
decomposes every query as an expansion does (benchmarks/subquery_quality.py does the same on
the shared data). The two read by ``load plain`` live in ``plain_shapes.py``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from toolex.judges.base import DecomposeTask, SubQuery
from toolex.judges.decomposer import Decomposer
from toolex.judges.library import library_idf, store_tools
from toolex.loaders import Benchmark, write_benchmark
from toolex.loaders.beir import read_beir
from toolex.store import Store


def decomposed(store: Store, bench: Benchmark) -> dict[str, tuple[DecomposeTask, list[SubQuery]]]:
    """query id -> (its decompose task, the offline decomposer's sub-queries), every query of
    ``bench`` (written to ``store``), the words weighed by the library's IDF."""
    tools = store_tools(store, bench.name)
    docs = {t.item_id: t for t in tools}
    idf, unseen = library_idf(tools)
    decomposer = Decomposer(lambda w: idf.get(w, unseen))
    out = {}
    for q in bench.queries:
        members = sorted(
            (r["slot"], r["item_id"]) for r in bench.qrels if r["query_id"] == q["query_id"]
        )
        task = DecomposeTask(
            q["query_id"], q["text"], q.get("instruction"), tuple(docs[i] for _, i in members)
        )
        out[task.key] = (task, decomposer.decompose(task))
    return out


def jsonl(path: Path, rows: list[dict[str, Any]]) -> Path:
    """Write ``rows`` as JSON lines at ``path`` (its folders made), as a library's files are."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


# -- a RapidAPI library in the BEIR layout ------------------------------------------------------


def _endpoint(
    category: str,
    tool: str,
    api: str,
    description: str,
    required: list[tuple[str, str]],
    returns: dict[str, Any],
) -> str:
    params = [{"name": n, "type": "STRING", "description": d, "default": ""} for n, d in required]
    return (
        f"category_name: {category}, tool_name: {tool}, api_name: {api}, api_description: "
        f"{description}, required_params: {json.dumps(params)}, optional_params: [], "
        f"return_schema: {json.dumps(returns)}"
    )


RAPIDAPI_TOOLS: dict[str, tuple[str, str, str, str, list[tuple[str, str]], dict[str, Any]]] = {
    "t1": (
        "Travel",
        "Booking",
        "Search locations",
        "Search locations by name",
        [("name", "")],
        {"dest_id": "str", "dest_type": "str", "label": "str"},
    ),
    "t2": (
        "Travel",
        "Booking",
        "Search hotels",
        "Search hotels near a destination for dates",
        [("dest_id", "destination id"), ("checkin_date", ""), ("checkout_date", "")],
        {"result": [{"hotel_name": "str", "price": "float"}]},
    ),
    "t3": (
        "Weather",
        "Weather API",
        "Forecast weather API",
        "Forecast for a city and days",
        [("q", "city name"), ("days", "number of days")],
        {"location": {"name": "str"}, "forecast": {"forecastday": []}},
    ),
    "t4": (
        "Storage",
        "Cloud Drive",
        "Get file",
        "",
        [("path", "path of the file")],
        {"request_id": "str", "error": "str", "data": {"file_id": "str"}},
    ),
    "t5": (
        "Storage",
        "Cloud Drive",
        "Download link",
        "Create a download link for a file",
        [("file_id", "")],
        {"request_id": "str", "error": "str", "link": "str"},
    ),
    "t6": (
        "Sports",
        "WNBA API",
        "WNBA Team Info",
        "Get the team info",
        [("teamid", "")],
        {"success": "bool", "messsage": "str", "team": {"displayName": "str"}},
    ),
    "t7": (
        "Sports",
        "WNBA API",
        "WNBA Schedule",
        "Get the schedule for a day",
        [("year", ""), ("month", ""), ("day", "")],
        {"success": "bool", "messsage": "str"},
    ),
    "t8": (
        "Sports",
        "WNBA API",
        "WNBA Box Score",
        "",
        [("id", "game id")],
        {"success": "bool", "messsage": "str", "boxscore": {}},
    ),
    "t9": (
        "Music",
        "Spotify Scraper",
        "List album tracks",
        "List the tracks of an album",
        [("albumId", "")],
        {"status": "bool", "tracks": {"items": [{"id": "str"}]}},
    ),
    "t10": (
        "Music",
        "Spotify Scraper",
        "Download track",
        "",
        [("track", "track id")],
        {"status": "bool", "youtubeVideo": {"audio": [{"url": "str"}]}},
    ),
    "t11": (
        "Music",
        "Lyrics Finder",
        "Search lyrics",
        "",
        [("q", "")],
        {"hits": [{"result": {"id": "int", "full_title": "str"}}]},
    ),
    "t12": (
        "Finance",
        "Forex Data",
        "Historical rates",
        "Historical forex data for a pair",
        [("pair", ""), ("start", "")],
        {"meta": {"symbol": "str"}, "values": []},
    ),
    "t13": (
        "Finance",
        "Options Chain",
        "Options",
        "Options chain of a stock or ETF",
        [("ticker", "")],
        {"optionChain": {"result": []}},
    ),
    "t14": (
        "Data",
        "IP to ZIP",
        "ZIP code of an IP",
        "The ZIP code of an IP address",
        [("ip", "")],
        {"zip": "str", "success": "bool"},
    ),
    "t15": (
        "Data",
        "IP Geo",
        "IP lookup",
        "Latitude and longitude of an IP address",
        [("ip", "")],
        {"lat": "float", "lon": "float", "status": "str"},
    ),
}

RAPIDAPI_QUERIES = {
    "q1": (
        "I'm planning a trip to Paris next week. Can you find me hotels near the Eiffel Tower "
        "and tell me the weather forecast for the dates of my stay?",
        ["t1", "t2", "t3"],
    ),
    "q2": (
        "My friend is a designer and needs to download a diagram file named 'design.vsdx' "
        "stored in the 'designs' folder. Can you assist with providing the download link?",
        ["t4", "t5"],
    ),
    "q3": (
        "i'm a basketball fan and i follow the wnba. can you give me the team info for the team "
        "with the id 18? also i'd like to know the schedule for may 5, 2022. finally, get me the "
        "box score of the game 401244185.",
        ["t6", "t7", "t8"],
    ),
    "q4": (
        "I'm a music lover and I want to download all the tracks from the album with the ID "
        "6lggWd5q9Rh66OkDE1eNDr. Can you provide me with the track list? Also, fetch the lyrics "
        "of the first track.",
        ["t9", "t10", "t11"],
    ),
    "q5": (
        "I'm researching the historical performance of the AUD/NZD pair and options for the "
        "QQQ ETF. Could you get these data sets for me?",
        ["t12", "t13"],
    ),
    "q6": (
        "What is the ZIP code and the latitude and longitude coordinates of the IP address "
        "8.8.8.8?",
        ["t14", "t15"],
    ),
}


def rapidapi_beir(root: Path, store: Store) -> Benchmark:
    corpus = [
        {"_id": i, "title": api, "text": _endpoint(cat, tool, api, desc, req, ret)}
        for i, (cat, tool, api, desc, req, ret) in RAPIDAPI_TOOLS.items()
    ]
    jsonl(root / "corpus.jsonl", corpus)
    queries = [{"_id": q, "text": t} for q, (t, _) in RAPIDAPI_QUERIES.items()]
    jsonl(root / "queries.jsonl", queries)
    qrels = ["query-id\tcorpus-id\tscore"]
    qrels += [f"{q}\t{i}\t1" for q, (_, items) in RAPIDAPI_QUERIES.items() for i in items]
    (root / "qrels").mkdir(parents=True, exist_ok=True)
    (root / "qrels" / "test.tsv").write_text("\n".join(qrels) + "\n", encoding="utf-8")
    bench = read_beir(root, name="rapidapi")
    write_benchmark(store, bench)
    return bench
