"""The offline judge's embedding model: WordLlama by default, a local model when the config file's
``[judges] embedding`` (or ``make_judge``'s ``embedding=``) gives one, checked before any work,
cut at the operating points fitted with that model, and recorded with the expansion."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import pytest

from judges.docs import required, tool
from toolex.errors import InputError
from toolex.judges import embedding, judges_for, make_judge
from toolex.judges import operating_points as op
from toolex.judges.base import ToolDoc, Verdict, VerifyTask
from toolex.judges.evidence import about_text
from toolex.judges.heuristic import HeuristicJudge
from toolex.pipeline.config import load_config
from toolex.pipeline.runner import Settings
from toolex.retrieval.embedders import Embedder
from toolex.store import Store

MINILM = "sentence-transformers/all-MiniLM-L6-v2"
REF = tool(
    "QR Wizard::Generate QR Code",
    "Generate QR Code",
    "Generate a QR code image that encodes the given text or URL.",
    "QR Wizard",
    required_parameters=required("text"),
)
OTHER = tool(
    "Go QR::QR Code Generator",
    "QR Code Generator",
    "Generates a QR code image for a text or a URL.",
    "Go QR",
    required_parameters=required("data"),
)
JOKE = tool("Jokes::Random Joke", "Random Joke", "Returns a random joke.", "Jokes")
STEP = "Generate a QR code for the URL https://example.com/donate"


class FakeEmbedder:
    """Every text to one unit vector: every cosine is 1, which no real model gives a joke tool
    against a QR generator, so a score read with it shows whose vectors it read."""

    def __init__(self, spec: str) -> None:
        self.spec, self.key, self.model, self.dim, self.max_words = spec, spec, MINILM, 3, None
        self.seen: list[str] = []

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.seen += list(texts)
        return np.tile(np.array([1.0, 0.0, 0.0], dtype=np.float32), (len(texts), 1))


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch) -> None:
    """A process with no embedding chosen or loaded yet (restored afterwards)."""
    monkeypatch.setattr(embedding, "_CHOSEN", [])
    monkeypatch.setattr(embedding, "_LOADED", {})


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch, fresh: None) -> list[FakeEmbedder]:
    """make_embedder builds a FakeEmbedder for a fastembed spec (WordLlama stays real)."""
    import toolex.retrieval.embedders as embedders

    made: list[FakeEmbedder] = []
    real = embedders.make_embedder

    def make(spec: str) -> Embedder | FakeEmbedder:
        if spec == "wordllama":
            return real(spec)
        made.append(FakeEmbedder(spec))
        return made[-1]

    monkeypatch.setattr(embedders, "make_embedder", make)
    return made


def model_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "minilm"
    folder.mkdir()
    (folder / "model.onnx").write_bytes(b"not read: the fake embedder stands in")
    return folder


def config_file(tmp_path: Path, line: str) -> Path:
    path = tmp_path / "toolex.toml"
    path.write_text(f'[judges]\nverify = "heuristic"\n{line}\n', encoding="utf-8")
    return path


def verify(judge: HeuristicJudge, cand: ToolDoc, ref: ToolDoc = REF) -> Verdict:
    verdict = next(judge.verify([VerifyTask("k", STEP, cand, ref, STEP)])).value
    assert isinstance(verdict, Verdict), verdict
    return verdict


# -- the default ----------------------------------------------------------------------------


def test_the_default_is_wordllama_with_its_operating_points(fresh: None, tmp_path: Path) -> None:
    config = load_config(config_file(tmp_path, ""))
    assert config.embedding is None and embedding.chosen() == "wordllama"
    judge = HeuristicJudge()
    assert (judge.embedding_spec, judge.embedding) == ("wordllama", "wordllama")
    assert judge.point == op.FITTED["wordllama"]
    assert judge.point.strict == op.STRICT_THRESHOLD  # the names the code has always read
    assert judge.reader()._embed is embedding.wordllama()  # loaded once, shared
    assert Settings().per_stage({s: judge for s in ("decompose", "verify", "audit")})["verify"] == {
        "judge": "heuristic",
        "embedding": "wordllama",
    }


# -- the config file's embedding reaches the reader -----------------------------------------


def test_the_config_files_embedding_reaches_the_evidence_reader_and_the_screen(
    fake: list[FakeEmbedder], tmp_path: Path, store: Store
) -> None:
    spec = f"fastembed:{MINILM}@{model_folder(tmp_path)}"
    config = load_config(config_file(tmp_path, f'embedding = "{spec}"'))
    assert config.embedding == spec
    judges = judges_for(store, config=config, benchmark="b")
    judge = judges["verify"]
    assert isinstance(judge, HeuristicJudge)
    assert (judge.embedding_spec, judge.embedding) == (spec, MINILM)
    evidence = judge.reader().read(STEP, JOKE, REF, STEP)
    [embedder] = fake  # built once, for the spec the file gave
    assert about_text(JOKE) in embedder.seen
    assert evidence.about_sim == pytest.approx(1.0)  # the fake's vectors, not WordLlama's
    assert evidence.doc_sim == pytest.approx(1.0)
    # the verify stage's pre-screen, built where no config is at hand, reads with it too
    screen = make_judge("heuristic:prescreen", store, benchmark="b")
    assert isinstance(screen, HeuristicJudge) and screen.embedding == MINILM
    screen.reader().read(STEP, OTHER, REF, STEP)
    assert len(fake) == 1  # one load per process per spec
    wanted = Settings().per_stage(judges)
    assert wanted["verify"] == {"judge": "heuristic", "embedding": MINILM}  # the model, no folder
    assert "embedding" not in wanted["decompose"]  # only the verifier reads with it


def test_a_judge_options_embedding_wins_over_the_config_files(
    fake: list[FakeEmbedder], tmp_path: Path
) -> None:
    folder = model_folder(tmp_path)
    load_config(config_file(tmp_path, 'embedding = "wordllama"'))
    judge = make_judge("heuristic", embedding=f"fastembed:{MINILM}@{folder}")
    assert judge.embedding == MINILM and HeuristicJudge().embedding == "wordllama"


# -- bad specs fail before any work ---------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "says"),
    [
        ('"fastembed:{m}@{missing}"', "no folder {missing}"),
        ('"fastembed:{m}@{empty}"', "no model.onnx in {empty}"),
        ('"fastembed:{m}@"', "names no folder after '@'"),
        ('"sbert:{m}"', "unknown embedding 'sbert:"),
        ('"fastembed:no-such/model@{empty}"', "fastembed has no model 'no-such/model'"),
        ("3", "expected an embedding spec string"),
    ],
)
def test_a_bad_embedding_is_an_error_naming_the_setting_and_the_file(
    fresh: None, tmp_path: Path, value: str, says: str
) -> None:
    names = {"m": MINILM, "missing": tmp_path / "nowhere", "empty": tmp_path / "empty"}
    (tmp_path / "empty").mkdir()
    path = config_file(tmp_path, "embedding = " + value.format(**names))
    with pytest.raises(InputError) as refused:
        load_config(path)
    message = str(refused.value)
    assert message.startswith(f"{path}, field 'judges.embedding': "), message
    assert says.format(**names) in message
    assert embedding.chosen() == "wordllama"  # nothing half-set by the refused file


def test_a_bad_embedding_given_to_the_judge_fails_when_it_is_built(
    fresh: None, tmp_path: Path
) -> None:
    with pytest.raises(InputError, match="no folder"):
        make_judge("heuristic", embedding=f"fastembed:{MINILM}@{tmp_path / 'nowhere'}")


# -- operating points and held-out figures per embedding ------------------------------------


def test_operating_points_select_by_the_embedding_model() -> None:
    minilm, wordllama = op.point_of(MINILM), op.point_of("wordllama")
    assert op.is_fitted(MINILM) and minilm == op.FITTED[MINILM] and minilm != wordllama
    # a model nobody fitted is cut at WordLlama's points, and says it was not fitted
    assert op.point_of("BAAI/bge-small-en-v1.5") == wordllama
    assert not op.is_fitted("BAAI/bge-small-en-v1.5")
    a, b = minilm.calibration
    assert op.confidence(1.0, False, minilm) == pytest.approx(1 / (1 + math.exp(-(a + b))))
    assert op.confidence(1.0, True, minilm) == minilm.vetoed_yes_rate


def test_the_judge_cuts_at_its_embeddings_point(fake: list[FakeEmbedder], tmp_path: Path) -> None:
    judge = HeuristicJudge(embedding=f"fastembed:{MINILM}@{model_folder(tmp_path)}")
    assert judge.point == op.FITTED[MINILM]
    v = verify(judge, OTHER)
    cut = op.FITTED[MINILM].strict
    assert (f">= {cut:.2f}" if v.accepted else f"< {cut:.2f}") in v.reason
    screen = HeuristicJudge(mode="prescreen", embedding=judge.embedding_spec)
    assert f"vs {op.FITTED[MINILM].screen:.2f}" in verify(screen, JOKE).reason


def test_held_out_figures_are_the_embeddings_own() -> None:
    import json

    from toolex.resources import data_path

    shipped = json.loads(data_path(op.HELD_OUT_FILE).read_text(encoding="utf-8"))
    assert set(shipped) == {"wordllama", MINILM}  # keyed by the model, never a folder
    for model in ("wordllama", MINILM):
        found = op.held_out("heuristic", "toolret", model)
        assert found is not None, model
        assert found.precision == shipped[model]["benchmarks"]["toolret"]["heuristic"]["precision"]
    mine = op.held_out("heuristic", None, MINILM)
    assert mine is not None
    assert mine.labels == shipped[MINILM]["all"]["heuristic"]["labels"]
    assert op.held_out("heuristic", "toolret", "BAAI/bge-small-en-v1.5") is None


def test_held_out_defaults_to_the_embedding_this_process_reads_with(
    fake: list[FakeEmbedder], tmp_path: Path
) -> None:
    assert op.held_out("heuristic:prescreen", None) == op.held_out(
        "heuristic:prescreen", None, "wordllama"
    )
    embedding.choose(f"fastembed:{MINILM}@{model_folder(tmp_path)}")
    assert op.held_out("heuristic:prescreen", None) == op.held_out(
        "heuristic:prescreen", None, MINILM
    )


# -- the real MiniLM model ------------------------------------------------------------------


def test_the_shared_minilm_model_reads_real_numbers(fresh: None, shared_model: Path) -> None:
    judge = HeuristicJudge(embedding=f"fastembed:{MINILM}@{shared_model}")
    near = judge.reader().read(STEP, OTHER, REF, STEP)
    far = judge.reader().read(STEP, JOKE, REF, STEP)
    for e in (near, far):
        assert all(math.isfinite(v) for v in e.named(("about_sim", "doc_sim", "sub_sim")).values())
    assert near.about_sim > 0.8 > 0.3 > far.about_sim  # two QR generators vs a joke tool
    wordllama = HeuristicJudge().reader().read(STEP, OTHER, REF, STEP)
    assert near.about_sim != pytest.approx(wordllama.about_sim, abs=1e-3)  # another model's
    assert not verify(judge, JOKE).accepted


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield str(k)
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def test_the_judges_wordllama_gives_wordllamas_own_vectors_bit_for_bit() -> None:
    """The judge's WordLlama (the retrieval embedder's, unpadded, each text's own rows summed:
    issue 34) equals WordLlama's own padded pooling, every float, on every string of the bundled
    sample's documents, a whole request's JSON, and texts of no token or of odd characters, in
    one batch as a verify stage's."""
    from toolex.resources import data_path
    from toolex.retrieval.embedders import WordLlamaEmbedder, make_embedder

    texts: list[str] = []
    for path in sorted((data_path("sample") / "test_instruction").glob("*.json")):
        raw = path.read_text()
        texts += [raw[:2000], *_strings(json.loads(raw))]
    texts = list(dict.fromkeys(texts)) + ["", " ", "...", "ünïcode ☃ 中文 😀", "word " * 900]
    assert len(texts) > 2000
    fast = embedding.embed_for(embedding.DEFAULT_EMBEDDING)(texts)
    embedder = make_embedder(embedding.DEFAULT_EMBEDDING)
    assert isinstance(embedder, WordLlamaEmbedder)
    with np.errstate(invalid="ignore", divide="ignore"):  # a text of no token: 0 / 0
        own = embedder._wl.embed(texts, norm=True)
        slow = own / np.linalg.norm(own, axis=1)[:, None]
    slow[~np.isfinite(slow).all(axis=1)] = 0.0  # the embedder's zero vector for it
    assert fast.dtype == slow.dtype == np.float32
    assert fast.shape == slow.shape == (len(texts), 256)
    assert np.array_equal(fast, slow)
    assert not fast[-5].any()  # the empty text: no token, the zero vector
    assert embedding.embed_for(embedding.DEFAULT_EMBEDDING)([]).shape == (0, 256)
