"""``import_lancedb`` defers the namespace REST client: toolex's whole Lance path (connect, create,
open, flat and IVF search with a prefilter, optimize) runs without it, and the client, once asked
for, is the one a plain import gives; lancedb's overriding methods are marked as on Python 3.12.
Each case runs in a fresh interpreter, as the deferral only applies before lancedb is first
imported. These tests fail if a lancedb release starts to use the REST client on that path (the
deferral would then only cost, never save) or if the shim no longer hands back the real
package; its models build their validators when first used, as a plain import's would."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from toolex.retrieval.lance_import import REST_CLIENT

TIMEOUT_S = 300  # a fresh interpreter importing lancedb, on a loaded machine

LANCE_PATH = """
import json, sys
import numpy as np
import pyarrow as pa
from toolex.retrieval.lance_import import REST_CLIENT, import_lancedb
from toolex.retrieval.ann import AnnParams, vector_search

import overrides
checking = overrides.override
lancedb = import_lancedb()
from lancedb.db import LanceDBConnection
db = lancedb.connect(sys.argv[1])
rng = np.random.default_rng(0)
vectors = rng.normal(size=(300, 8)).astype(np.float32)
table = pa.table({
    "item_id": pa.array([f"i{n:03d}" for n in range(300)]),
    "task_code": pa.array([n % 3 for n in range(300)], pa.int32()),
    "vector": pa.FixedSizeListArray.from_arrays(pa.array(vectors.ravel()), 8),
})
t = db.create_table("t", table, mode="overwrite")
t = db.open_table("t")
flat = vector_search(t, vectors[:5], 4, "task_code = 1", None)
AnnParams(partition_rows=100).create(t, 300)
ann = vector_search(t, vectors[:5], 4, None, AnnParams(nprobes=3))
from datetime import timedelta
t.optimize(cleanup_older_than=timedelta(0), delete_unverified=True)
client = [m for m in sys.modules if m == REST_CLIENT or m.startswith(REST_CLIENT + ".")]
from pydantic import BaseModel
def subclasses(c):
    for s in c.__subclasses__():
        yield s
        yield from subclasses(s)
models = {c for c in subclasses(BaseModel) if c.__module__.startswith(REST_CLIENT)}
print(json.dumps({
    "models": len(models),
    "built": sorted(c.__name__ for c in models if c.__pydantic_complete__),
    "default_back": "defer_build" not in BaseModel.model_config,
    "api_loaded": [m for m in client if m.startswith(REST_CLIENT + ".api")],
    "models_loaded": f"{REST_CLIENT}.models" in sys.modules,
    "flat": flat.column("item_id").to_pylist(),
    "ann": ann.column("item_id").to_pylist(),
    "marked": getattr(LanceDBConnection.open_table, "__override__", None),
    "restored": overrides.override is checking,
}))
"""


def _run(code: str, *args: str) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code), *args],
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    out: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return out


def test_toolex_lance_path_never_loads_the_rest_api(tmp_path: Path) -> None:
    out = _run(LANCE_PATH, str(tmp_path / "db.lance"))
    assert out["api_loaded"] == []  # none of its 9 API modules, nor the ApiClient
    assert out["models_loaded"] is True  # lance_namespace's models did import, as before
    flat, ann = out["flat"], out["ann"]
    assert isinstance(flat, list) and len(flat) == 20
    assert all(int(i[1:]) % 3 == 1 for i in flat)  # the prefilter held
    assert isinstance(ann, list) and ann[::4] == [f"i{n:03d}" for n in range(5)]  # self first
    # lancedb's overriding methods are marked (as typing.override marks them on Python 3.12),
    # and the overrides package's own checking decorator is back for everyone else
    assert out["marked"] is True and out["restored"] is True
    # the namespace's 146 models are made with their validators deferred: only the 4 lancedb
    # itself uses while it imports are built, the path builds none; pydantic's default is back
    assert out["models"] == 146 and out["default_back"] is True
    assert out["built"] == ["BoostQuery", "FtsQuery", "JsonArrowDataType", "JsonArrowField"]


def test_the_marker_takes_both_forms_of_the_decorator() -> None:
    from toolex.retrieval.lance_import import _mark_override

    def method() -> None: ...

    assert _mark_override(method) is method and getattr(method, "__override__", None) is True
    decorator = _mark_override(check_signature=False)
    assert callable(decorator) and decorator(method) is method
    assert _mark_override(len) is len  # a builtin takes no attribute: returned unmarked


def test_the_deferred_client_is_the_real_one_once_asked_for() -> None:
    code = """
    import json, sys
    from toolex.retrieval.lance_import import REST_CLIENT, import_lancedb
    import_lancedb()
    client = sys.modules[REST_CLIENT]
    before = any(m.startswith(REST_CLIENT + ".api") for m in sys.modules)
    api_client, version = client.ApiClient, client.__version__  # runs the package's __init__
    from lance_namespace_urllib3_client import TableApi, models
    from lance_namespace_urllib3_client.api_client import ApiClient
    from lance_namespace_urllib3_client.api.table_api import TableApi as Direct
    import importlib.metadata as md
    try:
        client.no_such_name
        missing = None
    except AttributeError as exc:
        missing = str(exc)
    print(json.dumps({
        "before": before,
        "same": api_client is ApiClient and TableApi is Direct,
        "models": models is sys.modules[REST_CLIENT + ".models"],
        "version": version == md.version("lance-namespace-urllib3-client"),
        "missing": missing,
    }))
    """
    out = _run(code)
    assert out == {
        "before": False,
        "same": True,
        "models": True,
        "version": True,
        "missing": f"module {REST_CLIENT!r} has no attribute 'no_such_name'",
    }


def test_no_deferral_once_lancedb_is_imported() -> None:
    code = """
    import json, sys
    import lancedb
    from toolex.retrieval.lance_import import REST_CLIENT, import_lancedb
    assert import_lancedb() is lancedb
    print(json.dumps({"api": f"{REST_CLIENT}.api" in sys.modules}))
    """
    assert _run(code) == {"api": True}  # a plain import loads it: the saving is real


def test_a_package_not_installed_is_left_to_lancedb(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    from toolex.retrieval import lance_import

    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    lance_import._defer("toolex_test_absent")
    assert "toolex_test_absent" not in sys.modules


MODEL_USE = """
import json, sys
if sys.argv[1] == "deferred":
    from toolex.retrieval.lance_import import import_lancedb
    import_lancedb()
else:
    import lancedb
from lance_namespace_urllib3_client.models import CreateTableIndexRequest, ListTablesResponse
request = CreateTableIndexRequest.model_validate(
    {"id": ["ns", "t"], "column": "vector", "index_type": "IVF_FLAT", "distance_type": "cosine"}
)
try:
    ListTablesResponse.model_validate({"tables": "not a list"})
    error = None
except Exception as exc:
    error = [e["type"] for e in exc.errors()]
print(json.dumps({
    "schema": CreateTableIndexRequest.model_json_schema(),
    "dumped": request.model_dump(mode="json"),
    "error": error,
}, sort_keys=True))
"""


def test_a_deferred_model_validates_as_a_plain_import_makes_it() -> None:
    """A model whose validator waited for its first use builds it then: the same schema, the
    same value and the same validation error as with lancedb imported the plain way."""
    deferred, plain = _run(MODEL_USE, "deferred"), _run(MODEL_USE, "plain")
    assert deferred == plain
    assert deferred["error"] == ["list_type"]
    assert isinstance(deferred["dumped"], dict) and deferred["dumped"]["column"] == "vector"
