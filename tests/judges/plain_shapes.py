"""The two library shapes of ``library_shapes.py`` read by ``load plain`` (issue 32):

* ``generated``: a Seal-Tools-style generated library (camelCase names, ``parameters`` with
  "e.g." examples, ``responses``), long requests of three to five steps ("First, ... Then, ...
  Finally, ...") whose values belong to one step each, and call chains ("the id from the
  previous call");
* ``plugins``: a MetaTool-style plugin library (a plugin name and its description for the
  model), one tool per request.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from judges.library_shapes import jsonl
from toolex.loaders import Benchmark, write_benchmark
from toolex.loaders.plain import read_plain
from toolex.store import Store

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
    items = jsonl(root / "items.jsonl", [{"id": t["api_name"], "doc": t} for t in GENERATED_TOOLS])
    queries = jsonl(root / "queries.jsonl", GENERATED_QUERIES)
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
    items = jsonl(
        root / "items.jsonl", [{"id": n, "name": n, "text": d} for n, d in PLUGINS.items()]
    )
    queries = jsonl(
        root / "queries.jsonl",
        [{"id": q, "text": t, "labels": [tool]} for q, (t, tool) in PLUGIN_QUERIES.items()],
    )
    bench = read_plain(items, queries, name="plugins")
    write_benchmark(store, bench)
    return bench
