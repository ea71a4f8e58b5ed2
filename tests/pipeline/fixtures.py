"""A two-query benchmark whose expansion is computable by hand (tests only).

q1 (k=2): "get the weather forecast for a city and convert celsius to fahrenheit"
    slot 0 ref wx_a::forecast (platform WxA), slot 1 ref cv::c2f (platform Conv)
q2 (k=1): "log in and get the account balance" — ref bank::balance (requires token)
"""

from __future__ import annotations

from pipeline.helpers import add_benchmark, add_item, add_query
from toolex.store import Store

FORECAST = {
    "name": "forecast",
    "description": "Get the weather forecast for a city.",
    "required_parameters": [{"name": "city", "type": "STRING"}],
    "template_response": {"temperature": "float", "condition": "str"},
}
FORECAST_B = {
    "name": "city forecast",
    "description": "Get the weather forecast of a city.",
    "required_parameters": [{"name": "location", "type": "STRING"}],
    "template_response": {"temperature": "float", "sky": "str"},
}
FORECAST_C = {
    "name": "weather forecast",
    "description": "Get the weather forecast for a city by day.",
    "required_parameters": [{"name": "city", "type": "STRING"}],
}
C2F = {
    "name": "c2f",
    "description": "Convert a temperature from celsius to fahrenheit.",
    "required_parameters": [{"name": "celsius", "type": "NUMBER"}],
}
C2F_B = {
    "name": "celsius to fahrenheit",
    "description": "Convert celsius temperature to fahrenheit degrees.",
    "required_parameters": [{"name": "celsius", "type": "NUMBER"}],
}
STOCK = {
    "name": "stock quote",
    "description": "Get the stock price quote for a ticker.",
    "required_parameters": [{"name": "symbol", "type": "STRING"}],
}
DELETE_CITY = {
    "name": "delete city",
    "description": "Delete a city from the weather watch list.",
    "required_parameters": [{"name": "city", "type": "STRING"}],
}


def build(store: Store) -> None:
    add_benchmark(store)
    add_item(store, "wx_a::forecast", FORECAST, "WxA")
    add_item(store, "wx_b::forecast", FORECAST_B, "WxB")
    add_item(store, "wx_c::forecast", FORECAST_C, "WxC")
    add_item(store, "cv::c2f", C2F, "Conv")
    add_item(store, "cv2::c2f", C2F_B, "Conv2")
    add_item(store, "st::quote", STOCK, "Stocks")
    add_item(store, "wx_a::delete", DELETE_CITY, "WxA")
    add_query(
        store,
        "q1",
        "Get the weather forecast for Paris and convert 20 celsius to fahrenheit",
        ["wx_a::forecast", "cv::c2f"],
    )
    add_query(store, "q2", "What is the stock price quote of AAPL?", ["st::quote"])
