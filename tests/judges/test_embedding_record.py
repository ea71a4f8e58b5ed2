"""The offline verifier's embedding is recorded with the expansion: a re-run with another one is
refused as other settings are, and the trust lines print the figures of the embedding it used
(never WordLlama's figures as another model's)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from pipeline.fixtures import build
from pipeline.helpers import overlap_search

from toolex.judges import embedding
from toolex.judges import operating_points as op
from toolex.judges.heuristic import HeuristicJudge
from toolex.pipeline.record import SettingsConflict, differences, stored
from toolex.pipeline.runner import RunReport, run_expansion
from toolex.reports.trust import HELD_OUT_BASIS, UNVALIDATED, ExpansionTrust, expansion_trust
from toolex.reports.trust_measure import JudgeTrust
from toolex.reports.trust_table import trust_table
from toolex.store import Store

MINILM = "sentence-transformers/all-MiniLM-L6-v2"
HEURISTIC = {"decompose": "heuristic", "verify": "heuristic", "audit": "heuristic"}


def minilm(tmp_path: Path) -> HeuristicJudge:
    """The offline judge as a MiniLM folder configures it, reading with a stand-in (every text to
    one vector): what is recorded is the model's name, whatever the vectors."""
    folder = tmp_path / "minilm"
    folder.mkdir(exist_ok=True)
    (folder / "model.onnx").write_bytes(b"")
    return HeuristicJudge(
        embedding=f"fastembed:{MINILM}@{folder}",
        embed=lambda texts: np.tile(np.array([1.0, 0.0], dtype=np.float32), (len(texts), 1)),
    )


def expand(
    store: Store, judge: HeuristicJudge, expansion: str = "default", replace: bool = False
) -> RunReport:
    return run_expansion(
        store, "b", judge, search=overlap_search, expansion=expansion, replace=replace
    )


def test_an_expansion_records_its_embedding_and_refuses_another(
    store: Store, tmp_path: Path
) -> None:
    build(store)
    expand(store, HeuristicJudge(store))
    assert "judge_embedding" not in stored(store, "b", "default")  # WordLlama: as it always was
    with pytest.raises(SettingsConflict) as refused:
        expand(store, minilm(tmp_path))
    assert f"verify.embedding: wordllama -> {MINILM}" in str(refused.value)
    expand(store, minilm(tmp_path), expansion="mini")
    assert stored(store, "b", "mini")["judge_embedding"] == MINILM
    with pytest.raises(SettingsConflict, match=f"verify.embedding: {MINILM} -> wordllama"):
        expand(store, HeuristicJudge(store), expansion="mini")
    expand(store, minilm(tmp_path), expansion="mini")  # the same embedding resumes
    expand(store, HeuristicJudge(store), expansion="mini", replace=True)
    assert "judge_embedding" not in stored(store, "b", "mini")


def test_a_record_from_before_embeddings_reads_as_wordllama() -> None:
    made = {"verify": 3}
    old = {"judges": {"verify": "heuristic"}}
    asked = {"verify": {"judge": "heuristic", "embedding": MINILM}}
    assert differences(old, asked, made, ["verify"]) == [f"verify.embedding: wordllama -> {MINILM}"]
    same = {"verify": {"judge": "heuristic", "embedding": "wordllama"}}
    assert differences(old, same, made, ["verify"]) == []
    llm = {"judges": {"verify": "openai:x"}}  # an LLM verifier reads with no embedding
    assert differences(llm, {"verify": {"judge": "openai:x"}}, made, ["verify"]) == []


# -- trust lines ------------------------------------------------------------------------------


def recorded(
    store: Store, benchmark: str, judge_embedding: str | None = None
) -> tuple[ExpansionTrust, JudgeTrust, str]:
    config: dict[str, object] = {"judges": HEURISTIC}
    if judge_embedding:
        config["judge_embedding"] = judge_embedding
    store.con.execute(
        "INSERT INTO expansions VALUES (?, 'default', ?, now())", [benchmark, json.dumps(config)]
    )
    trust = expansion_trust(store, benchmark, "default")
    assert trust is not None, benchmark  # the expansion was just recorded
    [verify] = [j for j in trust.judges if j.stage == "verify"]
    [line] = [line for line in trust.lines() if " verify " in line]
    return trust, verify, line


def shipped(embedding: str) -> op.HeldOut:
    """The held-out figures the wheel ships for the heuristic judge on toolret."""
    found = op.held_out("heuristic", "toolret", embedding)
    assert found is not None, embedding
    return found


def test_the_trust_line_prints_the_figures_of_the_embedding_used(store: Store) -> None:
    trust, verify, line = recorded(store, "toolret", MINILM)
    mine = shipped(MINILM)
    theirs = shipped("wordllama")
    assert mine.precision != theirs.precision
    assert (verify.basis, verify.precision, verify.n) == (HELD_OUT_BASIS, mine.precision, 520)
    assert line.startswith(
        f"trust toolret/default verify heuristic (embedding {MINILM}): precision "
        f"{mine.precision:.3f}"
    )
    assert trust_table([trust]).rows[1]["judge"] == f"heuristic (embedding {MINILM})"


def test_wordllama_expansions_keep_their_figures_and_their_line(store: Store) -> None:
    _, verify, line = recorded(store, "toolret")
    wordllama = shipped("wordllama")
    assert (verify.precision, verify.embedding) == (wordllama.precision, "wordllama")
    assert line.startswith(
        f"trust toolret/default verify heuristic: precision {wordllama.precision:.3f}"
    )


def test_an_embedding_nobody_fitted_is_unmeasured_never_shown_wordllamas_figures(
    store: Store,
) -> None:
    trust, verify, line = recorded(store, "toolret", "BAAI/bge-small-en-v1.5")
    assert verify.basis == UNVALIDATED and verify.precision is None and trust.unvalidated
    assert line == (
        "trust toolret/default verify heuristic (embedding BAAI/bge-small-en-v1.5): unvalidated: "
        "unmeasured with the embedding BAAI/bge-small-en-v1.5: its cut is WordLlama's and nothing "
        "measured it on its scores; `python benchmarks/fit_offline_judge.py --db STORE "
        "--embedding SPEC` does"
    )
    wordllama = shipped("wordllama")
    assert f"{wordllama.precision:.3f}" not in " ".join(trust.lines())


def test_the_screen_reads_the_figures_of_the_embedding_this_process_uses(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from toolex.pipeline import verify_plan

    monkeypatch.setattr(embedding, "_CHOSEN", ["fastembed:BAAI/bge-small-en-v1.5"])
    assert not verify_plan.screen_earns_default()  # no figures for it: not earned
