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
the shared data).
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
from toolex.loaders.plain import read_plain
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


def _jsonl(path: Path, rows: list[dict[str, Any]]) -> Path:
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
    _jsonl(root / "corpus.jsonl", corpus)
    queries = [{"_id": q, "text": t} for q, (t, _) in RAPIDAPI_QUERIES.items()]
    _jsonl(root / "queries.jsonl", queries)
    qrels = ["query-id\tcorpus-id\tscore"]
    qrels += [f"{q}\t{i}\t1" for q, (_, items) in RAPIDAPI_QUERIES.items() for i in items]
    (root / "qrels").mkdir(parents=True, exist_ok=True)
    (root / "qrels" / "test.tsv").write_text("\n".join(qrels) + "\n", encoding="utf-8")
    bench = read_beir(root, name="rapidapi")
    write_benchmark(store, bench)
    return bench


# -- a Seal-Tools-style generated library --------------------------------------------------------


def _generated(
    name: str, description: str, params: dict[str, str], required: list[str], responses: list[str]
) -> dict[str, Any]:
    return {
        "api_name": name,
        "api_description": description,
        "parameters": {p: {"type": "str", "description": d} for p, d in params.items()},
        "required": required,
        "responses": {
            r: {"type": "str", "description": f"The {r.replace('_', ' ')}"} for r in responses
        },
    }


GENERATED_TOOLS = [
    _generated(
        "checkOut",
        "Check out a guest from the hotel",
        {
            "guest_name": "The name of the guest (e.g., John Smith)",
            "departure_date": "The date of departure (e.g., 2022-01-01)",
        },
        ["guest_name", "departure_date"],
        ["status", "invoice"],
    ),
    _generated(
        "getFilmInfo",
        "Retrieve information about a film",
        {"film_name": "The name of the film (e.g., Titanic, Inception)"},
        ["film_name"],
        ["director", "genre", "rating"],
    ),
    _generated(
        "recognizeText",
        "Recognize text in an image",
        {"image_path": "The path of the image file"},
        ["image_path"],
        ["text"],
    ),
    _generated(
        "getBuildingCodes",
        "Retrieve building codes and standards for a country",
        {
            "country": "The country (e.g., United States, Germany)",
            "type": "The type of building (e.g., residential, commercial)",
        },
        ["country"],
        ["codes", "building_id"],
    ),
    _generated(
        "getBuildingTemperature",
        "Retrieve the current temperature of a smart building",
        {"building_id": "The ID of the building", "unit": "The unit (e.g., Celsius)"},
        ["building_id"],
        ["temperature"],
    ),
    _generated(
        "startWorkspace",
        "Start a workspace in a cloud IDE",
        {"workspace_id": "The ID of the workspace"},
        ["workspace_id"],
        ["status"],
    ),
    _generated(
        "synthesizeSpeech",
        "Convert text into synthetic speech",
        {"text": "The text to synthesize"},
        ["text"],
        ["audio_url"],
    ),
    _generated(
        "sendSMS",
        "Send a text message to a phone number",
        {
            "phone_number": "The phone number (e.g., +1234567890)",
            "message": "The content of the message",
        },
        ["phone_number", "message"],
        ["delivery_status"],
    ),
    _generated(
        "trackParcel",
        "Track the progress of a parcel",
        {
            "parcel_number": "The tracking number of the parcel",
            "shipping_service": "The shipping service (e.g., UPS, DHL)",
            "language": "The language of the updates (e.g., English, Spanish)",
        },
        ["parcel_number"],
        ["status", "location"],
    ),
    _generated(
        "checkVitalSigns",
        "Check the vital signs of a patient",
        {"patient_id": "The ID of the patient"},
        ["patient_id"],
        ["heart_rate", "blood_pressure"],
    ),
    _generated(
        "scanEndpoint",
        "Scan an endpoint for security threats",
        {"endpoint": "The IP address or host of the endpoint"},
        ["endpoint"],
        ["ip_address", "threats"],
    ),
    _generated(
        "checkVulnerability",
        "Check an IP address for vulnerabilities",
        {
            "ip_address": "The IP address to check",
            "scan_type": "The type of scan (e.g., quick, full)",
        },
        ["ip_address"],
        ["vulnerabilities"],
    ),
    _generated(
        "getSoftwareVersion",
        "Retrieve the software version installed in a vehicle",
        {"vehicle_id": "The ID of the vehicle"},
        ["vehicle_id"],
        ["version"],
    ),
    _generated(
        "deployToProduction",
        "Deploy the latest software to production",
        {"pipeline_id": "The ID of the deployment pipeline"},
        ["pipeline_id"],
        ["deployment_status"],
    ),
]

GENERATED_QUERIES: list[dict[str, Any]] = [
    {
        "id": "g1",
        "text": "Please help me with the check-out process for Emily Johnson, who is departing "
        "on December 31, 2022. Also, I would like to know more about the film Titanic. Lastly, "
        "please recognize the text in the image img1.jpg.",
        "labels": ["checkOut", "getFilmInfo", "recognizeText"],
    },
    {
        "id": "g2",
        "text": "Please find the building codes and standards for a residential building in the "
        "United States. After that, retrieve the current temperature of the smart building "
        "with the id from the previous call. Finally, start the workspace with the id "
        "'H4pEbMrZxw' in a cloud IDE.",
        "labels": ["getBuildingCodes", "getBuildingTemperature", "startWorkspace"],
        "dependencies": [{"from": 0, "to": 1, "value": "building_id"}],
    },
    {
        "id": "g3",
        "text": "I want to generate synthetic speech from the text 'Good morning, team'. After "
        "that, send a text message to the phone number '5550001234' with the content 'Running "
        "late'. Next, track the parcel 'XY789' shipped with 'DHL', with updates in English. "
        "Then, check the vital signs of the patient with the ID 'P4471'.",
        "labels": ["synthesizeSpeech", "sendSMS", "trackParcel", "checkVitalSigns"],
    },
    {
        "id": "g4",
        "text": "Please scan the endpoint with the IP address 10.0.0.7 for security threats and "
        "check it for vulnerabilities with a quick scan. Then, retrieve the software version "
        "installed in the vehicle with the ID A12345. Finally, deploy the latest version to "
        "production with the deployment pipeline ID IRDK6wwc.",
        "labels": [
            "scanEndpoint",
            "checkVulnerability",
            "getSoftwareVersion",
            "deployToProduction",
        ],
        "dependencies": [{"from": 0, "to": 1, "value": "ip_address"}],
    },
]


def generated(root: Path, store: Store) -> Benchmark:
    items = _jsonl(root / "items.jsonl", [{"id": t["api_name"], "doc": t} for t in GENERATED_TOOLS])
    queries = _jsonl(root / "queries.jsonl", GENERATED_QUERIES)
    bench = read_plain(items, queries, name="generated")
    write_benchmark(store, bench)
    return bench


# -- a MetaTool-style plugin library -------------------------------------------------------------

PLUGINS = {
    "WeatherWizard": "Plugin for current weather and forecasts of any city in the world.",
    "RecipeFinder": "Plugin for finding recipes by ingredient, cuisine or diet.",
    "FlightTracker": "Plugin for tracking the live status of flights by flight number.",
    "StockSage": "Plugin for stock quotes, charts and company financials.",
    "MovieMate": "Plugin for movie showtimes, reviews and recommendations.",
}

PLUGIN_QUERIES = {
    "m1": ("Will it rain in Tokyo this weekend?", "WeatherWizard"),
    "m2": ("I have chicken, lemons and rice. What can I cook for dinner tonight?", "RecipeFinder"),
    "m3": ("Is flight BA 283 from London still on time?", "FlightTracker"),
    "m4": ("How did Apple stock do today?", "StockSage"),
    "m5": ("Which films are showing near me tonight, and are any of them good?", "MovieMate"),
}


def plugins(root: Path, store: Store) -> Benchmark:
    items = _jsonl(
        root / "items.jsonl", [{"id": n, "name": n, "text": d} for n, d in PLUGINS.items()]
    )
    queries = _jsonl(
        root / "queries.jsonl",
        [{"id": q, "text": t, "labels": [tool]} for q, (t, tool) in PLUGIN_QUERIES.items()],
    )
    bench = read_plain(items, queries, name="plugins")
    write_benchmark(store, bench)
    return bench
