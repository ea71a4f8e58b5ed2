"""A local server restarted on another port is the same judge (issue 28.5): `expand` resumes
instead of refusing "other settings", and is served the answers the model gave before."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner, Result
from pipeline.fixtures import build

from llm.llm_support import ScriptedServer
from toolex.cli import cli
from toolex.judges import judge_identity
from toolex.pipeline.record import differences
from toolex.store import Store


def test_judges_are_compared_by_identity() -> None:
    a = "compat:http://127.0.0.1:8080/v1#qwen"
    assert (
        judge_identity(a)
        == judge_identity("compat:http://10.0.0.2:9000/v1#qwen")
        == ("compat:qwen")
    )
    assert judge_identity("openai:gpt-4o") == "openai:gpt-4o"
    config = {"judges": {"verify": a}}
    made = {"verify": 5}
    moved = {"verify": {"judge": "compat:http://127.0.0.1:8081/v1#qwen"}}
    b = "compat:http://127.0.0.1:8080/v1#llama"
    other = {"verify": {"judge": b}}
    assert differences(config, moved, made, ["verify"]) == []
    assert differences(config, other, made, ["verify"]) == [f"verify.judge: {a} -> {b}"]


def test_expand_resumes_on_a_server_moved_to_another_port(
    llm_env: dict[str, str], tmp_path: Path
) -> None:
    db = str(tmp_path / "b.duckdb")
    with Store.open(db) as store:
        build(store)

    def expand(server: ScriptedServer, *extra: str) -> Result:
        config = tmp_path / f"{server.httpd.server_address[1]}.toml"
        config.write_text(
            f'[judges]\nverify = "compat:{server.url}/v1#qwen2.5-1.5b"\n', encoding="utf-8"
        )
        args = ["expand", "--db", db, "--benchmark", "b", "--config", str(config), *extra]
        return CliRunner().invoke(cli, args)

    with ScriptedServer() as first:
        capped = expand(first, "--max-calls", "1")  # stopped mid-verify: outputs exist
        assert capped.exit_code == 3, capped.output
    with ScriptedServer() as moved:
        resumed = expand(moved)
        assert resumed.exit_code == 0, resumed.output
        assert "other settings" not in resumed.output
        asked = moved.count("chat")
    with Store.open(db, read_only=True) as store:
        judges = store.user_sql("SELECT judge, count(*) n FROM llm_calls GROUP BY ALL").to_pylist()
    assert sum(r["n"] for r in judges) == 1 + asked  # nothing asked twice
