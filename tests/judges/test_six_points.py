"""The verifier's six points (toolex.judges.checks) on hand-made documents: each failure class
the issue saw on libraries nobody here had read fails its point, with that point as the reason,
and the right answers it saw there (the same endpoint under two provider names, one weather
fact from two providers, kilometres and miles) fail none."""

from __future__ import annotations

from judges.docs import required, tool
from toolex.judges.base import ToolDoc
from toolex.judges.checks import POINTS, findings
from toolex.judges.heuristic import HeuristicJudge


def failed(step: str, cand: ToolDoc, ref: ToolDoc, request: str = "") -> list[str]:
    """The points ``cand`` fails for ``ref`` on ``step`` (every one of them)."""
    return [f.point for f in findings(step, cand, ref, request or step, every=True)]


def reason(step: str, cand: ToolDoc, ref: ToolDoc, request: str = "") -> str:
    [first, *_] = findings(step, cand, ref, request or step) or [None]
    return str(first) if first else ""


def test_the_points_are_the_six_of_the_issue_in_its_order() -> None:
    assert POINTS == ("operation", "outputs", "inputs", "scope", "constraints", "platform")


# -- 1. operation and direction ----------------------------------------------------------------


def test_check_in_is_not_check_out() -> None:
    booking = {"required_parameters": required("guest_name", "room_type")}
    check_in = tool("h::in", "hotel_check_in", "Checks a guest in.", "Hotels", **booking)
    check_out = tool("g::out", "hotel_check_out", "Checks a guest out.", "Inns", **booking)
    step = "Check in the guest John Smith, room type Penthouse Suite"
    assert failed(step, check_out, check_in)[0] == "operation"
    assert "'in'" in reason(step, check_out, check_in) and "'out'" in reason(
        step, check_out, check_in
    )


def test_creating_a_dns_record_is_not_checking_one() -> None:
    create = tool(
        "d::create",
        "create_dns_record",
        "Creates a DNS record for a domain.",
        "DNS Manager",
        required_parameters=required("domain", "record_type", "value"),
    )
    check = tool(
        "c::check",
        "check_dns_record",
        "Checks the DNS records of a domain.",
        "DNS Lookup",
        required_parameters=required("domain"),
    )
    step = "Create an A record for example.com pointing to 1.2.3.4"
    assert failed(step, check, create)[0] == "operation"
    assert reason(step, check, create).startswith("operation: another act")


def test_installing_recording_and_measuring_are_not_checking_or_calculating() -> None:
    pairs = [
        ("installUpdate", "Install a software update.", "checkUpdate", "Check for an update."),
        ("checkVitals", "Check a patient's vitals.", "recordVitals", "Record vital signs."),
        (
            "measureCurrent",
            "Measure the current through a circuit.",
            "calculateCurrent",
            "Calculate the current through a circuit from voltage and resistance.",
        ),
    ]
    for ref_name, ref_says, cand_name, cand_says in pairs:
        ref, cand = (
            tool("r::" + ref_name, ref_name, ref_says),
            tool("c::" + cand_name, cand_name, cand_says),
        )
        assert failed(ref_says, cand, ref)[:1] == ["operation"], ref_name
        assert reason(ref_says, cand, ref).startswith("operation: another act"), ref_name


# -- 2. outputs the step asks for --------------------------------------------------------------

FILM_INFO = tool(
    "m::info",
    "get_film_info",
    "Film information.",
    "Movies A",
    required_parameters=required("title"),
    template_response={"title": "str", "actors": "list", "plot": "str"},
)
FILM_DETAILS = tool(
    "m::details",
    "film_details",
    "Details of a film.",
    "Movies B",
    required_parameters=required("title"),
    template_response={"title": "str", "genre": "str", "director": "str", "rating": "float"},
)


def test_film_details_without_actors_and_plot_do_not_answer_a_step_asking_them() -> None:
    step = "Get the actors and the plot of the film Inception"
    assert failed(step, FILM_DETAILS, FILM_INFO) == ["outputs"]
    assert reason(step, FILM_DETAILS, FILM_INFO) == (
        "outputs: the step asks for actors and plot; the candidate documents director, genre, "
        "rating, title"
    )
    # the other way round it asks for what the reference returns, the genre: the candidate
    # documenting actors and plot never says it
    assert failed("Get the genre of the film Inception", FILM_INFO, FILM_DETAILS) == ["outputs"]


def test_one_countrys_trade_totals_are_not_the_trade_between_two_countries() -> None:
    bilateral = tool(
        "t::bilateral",
        "bilateral_trade",
        "Trade flows between a reporter country and a partner country.",
        "Trade Stats",
        required_parameters=required("reporter_country", "partner_country"),
    )
    totals = tool(
        "t::totals",
        "country_trade_totals",
        "Total imports and exports of one country.",
        "World Trade",
        required_parameters=required("country"),
    )
    step = "Get the trade between Germany and France in 2022"
    assert "constraints" in failed(step, totals, bilateral)
    assert "'reporter_country'" in reason(step, totals, bilateral)


# -- 3. inputs the request gives ---------------------------------------------------------------


def test_a_search_that_requires_a_location_the_request_never_gives() -> None:
    ref = tool(
        "r::find",
        "search_records",
        "Search music records by artist.",
        "Records A",
        required_parameters=required("artist"),
    )
    cand = tool(
        "r::near",
        "search_records",
        "Search music records in stores near a location.",
        "Records B",
        required_parameters=required("artist", "location"),
    )
    step = "Find records of Beethoven"
    assert failed(step, cand, ref) == ["inputs"]
    assert "'location'" in reason(step, cand, ref)


def test_a_room_number_is_not_filled_by_a_room_type() -> None:
    check_in = tool(
        "a::checkIn",
        "checkIn",
        "Check in a guest.",
        required_parameters=required("guest_name", "arrival_date", "room_type"),
    )
    by_number = tool(
        "b::checkInGuest",
        "checkInGuest",
        "Check in a guest.",
        required_parameters=required("guest_name", "arrival_date", "room_number"),
    )
    step = "Check in the guest John Smith arriving on 1 December, room type Penthouse Suite"
    assert "inputs" in failed(step, by_number, check_in)
    assert "'room_number'" in reason(step, by_number, check_in)


# -- 4. scope and entity -----------------------------------------------------------------------


def test_the_national_average_is_not_one_states() -> None:
    national = tool("g::us", "/us", "National average gas price in the US.", "Gas Prices")
    state = tool("g::us/ca", "/us/ca", "Average gas price in one state.", "Gas Prices")
    step = "Get the national average gas price"
    assert "scope" in failed(step, state, national)
    assert "'us/ca'" in reason(step, state, national) or "scope" in failed(step, state, national)


def test_a_road_vehicle_by_vin_is_not_a_launch_vehicle() -> None:
    road = tool(
        "v::vin",
        "getVehicleInfo",
        "Details of a road vehicle from its identification number.",
        "Car Data",
        required_parameters=required("vin"),
    )
    launch = tool(
        "v::launch",
        "getVehicleInfo",
        "Details of a launch vehicle from its identification number.",
        "Space Data",
        required_parameters=required("vin"),
    )
    step = "Get the details of the vehicle with VIN 1HGCM82633A004352"
    assert failed(step, launch, road) == ["scope"]
    assert reason(step, launch, road) == (
        "scope: the reference is about a road vehicle, the candidate about a launch vehicle"
    )


def test_a_tool_for_another_country_does_not_serve_the_requests_place() -> None:
    egypt = tool(
        "e::geo",
        "Geocode",
        "Look up locations in Egypt by address.",
        "Egypt API",
        required_parameters=required("address"),
    )
    uganda = tool(
        "u::geo",
        "Geocode",
        "Look up locations in Uganda by address.",
        "Uganda API",
        required_parameters=required("address"),
    )
    step = "Find the latitude and longitude of a college"
    request = "Find a college in Cairo and give its latitude and longitude."
    assert failed(step, uganda, egypt, request) == ["scope"]
    assert "Egypt" in reason(step, uganda, egypt, request)


# -- 5. the request's constraints survive ------------------------------------------------------


def test_routes_by_airline_need_a_candidate_that_takes_the_airline() -> None:
    by_airline = tool(
        "f::routes_airline",
        "airport_routes_by_airline",
        "Routes from an airport flown by one airline.",
        "Flights A",
        required_parameters=required("airport", "airline"),
    )
    routes = tool(
        "f::routes",
        "airport_routes",
        "Routes from an airport.",
        "Flights B",
        required_parameters=required("airport"),
    )
    step = "List the routes from JFK flown by the airline Delta"
    assert failed(step, routes, by_airline) == ["constraints"]
    assert reason(step, routes, by_airline).startswith(
        "constraints: the step sets 'airline', which the reference takes"
    )


def test_a_number_the_step_names_must_be_the_candidates_too() -> None:
    u54 = tool("k::54", "get_u_54_athlete_ranking", "Ranking of the under-54 kg class.")
    u58 = tool("k::58", "get_u_58_athlete_ranking", "Ranking of the under-58 kg class.")
    step = "Fetch the global under-54 Taekwondo athlete ranking"
    assert failed(step, u58, u54) == ["constraints"]


# -- 6. platform-bound operations stay on their platform ---------------------------------------


def test_one_shops_categories_are_not_anothers() -> None:
    shop = tool("s::cats", "Get Categories", "Categories of our shop.", "Shop One")
    recipes = tool(
        "r::cats",
        "Get All Categories",
        "Returns all recipe categories.",
        "Recipe Site",
        template_response={"categories": [{"name": "str"}]},
    )
    step = "List all the categories of the catalogue"
    assert failed(step, recipes, shop) == ["platform"]
    assert "own records ('categories')" in reason(step, recipes, shop)


def test_a_service_reports_its_own_health_only() -> None:
    mine = tool("a::health", "/health", "API health information.", "QR Service")
    theirs = tool("b::health", "Health", "Get the API's health.", "Parcel Tracking")
    step = "Check the health status of the QR code service"
    assert failed(step, theirs, mine) == ["platform"]


# -- the right answers it must keep --------------------------------------------------------------


def test_the_same_endpoint_under_two_provider_names_is_kept() -> None:
    doc = {
        "required_parameters": required("category", "limit", "skip"),
        "template_response": {"products": "list", "summary": {"count": "int"}},
    }
    one = tool("p1::cat", "Get Products in Category", "", "Demo Project", **doc)
    two = tool("p2::cat", "Get Products in Category", "", "Onboarding Project_v3", **doc)
    step = "List the products in the 'Electronics' category"
    assert failed(step, two, one) == []


def test_one_weather_fact_from_two_providers_is_kept() -> None:
    owm = tool(
        "w1::forecast",
        "Weather Forecast",
        "Daily weather forecast for a city.",
        "OpenWeather",
        required_parameters=required("city"),
        template_response={"temperature": "float", "humidity": "int", "forecast": "list"},
    )
    other = tool(
        "w2::forecast",
        "forecast",
        "Weather forecast (temperature, humidity) for a location.",
        "WeatherAPI",
        required_parameters=[
            {"name": "q", "type": "STRING", "description": "City name, coordinates or zip code"}
        ],
        template_response={"forecast": [{"temp": "float", "humidity": "int"}]},
    )
    step = "Get the weather forecast for Paris"
    assert failed(step, other, owm) == []
    assert failed(step, owm, other) == []


def test_kilometres_and_miles_are_one_output() -> None:
    km = tool(
        "d1::km",
        "distance_km",
        "Great-circle distance between two points in kilometres.",
        "Geo A",
        required_parameters=required("lat1", "lon1", "lat2", "lon2"),
        template_response={"distance_km": "float"},
    )
    miles = tool(
        "d2::miles",
        "distance",
        "Great-circle distance between two coordinates, in miles.",
        "Geo B",
        required_parameters=required("lat1", "lon1", "lat2", "lon2"),
        template_response={"miles": "float"},
    )
    step = "How far apart are these two points, in km"
    assert failed(step, miles, km) == []


def test_a_verdict_names_the_point_that_failed() -> None:
    v = HeuristicJudge().judge_pair(
        "Get the actors and the plot of the film Inception", FILM_DETAILS, FILM_INFO
    )
    assert not v.accepted
    assert v.reason.startswith("no: outputs: the step asks for actors and plot")
    assert v.confidence is not None and 0.0 <= v.confidence <= 1.0
