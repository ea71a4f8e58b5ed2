"""The evidence the offline verifier reads, one observation at a time, on hand-made docs."""

from __future__ import annotations

import json

from toolex.judges import operating_points as op
from toolex.judges.base import ToolDoc
from toolex.judges.evidence import FEATURES, SCREEN_FEATURES, EvidenceReader
from toolex.judges.names import checkpoints, named_reference, sibling


def tool(item_id, name, description, platform=None, **doc):
    d = {"name": name, "description": description, **doc}
    return ToolDoc(item_id, name, platform, d, json.dumps(d))


def test_sibling_names_share_the_object_and_differ_in_a_qualifier():
    closing = tool("a", "get_closing_parenthesis", "Returns the closing parenthesis.")
    opening = tool("b", "get_opening_parenthesis", "Returns the opening parenthesis.")
    assert "closing" in sibling(opening, closing) and "opening" in sibling(opening, closing)
    # the same thing under another provider's name is no sibling
    qr_a = tool("c", "Generate QR Code", "Make a QR code image from text.")
    qr_b = tool("d", "QR code generator", "Creates a QR code for a text.")
    assert sibling(qr_a, qr_b) is None
    # sizes of one model family are variants, not siblings
    assert sibling(tool("e", "t5-base", "T5 summarizer."), tool("f", "t5-large", "T5.")) is None


def test_a_request_that_names_the_reference_rules_out_other_platforms():
    ref = tool("r", "Languages", "List supported languages.", "Cheap Translate")
    other = tool("o", "GET Languages", "Get all supported languages.", "Complex Converter")
    assert named_reference("Which languages does Cheap Translate support?", other, ref)
    assert named_reference("Which languages can I translate to?", other, ref) is None
    model = tool("m", "deepset/tinyroberta-squad2", "Distilled QA model.")
    base = tool("n", "deepset/roberta-base-squad2", "QA model.")
    assert "tinyroberta-squad2" in named_reference("Use tinyroberta-squad2 to answer", base, model)


def test_the_score_rises_with_similarity_and_falls_for_siblings():
    for model, names, sib in (
        (op.STRICT, FEATURES, "sibling"),
        (op.SCREEN, SCREEN_FEATURES, "sibling_loose"),
    ):
        assert set(model.weights) == set(names)
        base = {f: model.means[f] for f in names}
        assert model.score({**base, "about_sim": 0.95}) > model.score(base)
        assert model.score({**base, sib: 1.0}) < model.score({**base, sib: 0.0})
    assert 0.0 < op.PRESCREEN_THRESHOLD < op.STRICT_THRESHOLD < 1.0


def _flat(texts):
    """A stand-in embedder: every text the same unit vector (the lexical readings are tested)."""
    import numpy as np

    return np.ones((len(texts), 2)) / np.sqrt(2)


def test_the_screen_reads_the_whole_documentation_and_spells_names_loosely():
    # a model card says what it does in fields no parser reads as the description
    ref = tool(
        "r", "glpn-kitti-finetuned-221214", "GLPN for depth estimation.", domain="Depth Estimation"
    )
    cand = tool(
        "c", "glpn-nyu-finetuned-221121", "A fine-tuned GLPN model.", domain="Depth Estimation"
    )
    e = EvidenceReader({}, 1.0, _flat).read("estimate depth of a room photo", cand, ref)
    assert e.cover == 0.0 and e.cover_doc > 0.5
    # checkpoint ids of one family (dataset, date) are no siblings for the screen only
    assert checkpoints(cand, ref) and e.sibling and not e.sibling_loose
    # the same input spelled otherwise is supplied (colisId / colisid)
    a = tool("a", "Latest", "Current state of a parcel.", required_parameters=[{"name": "colisId"}])
    b = tool("b", "All", "History of a parcel.", required_parameters=[{"name": "colisid"}])
    e = EvidenceReader({}, 1.0, _flat).read("track parcel CA1", b, a)
    assert not e.inputs_ok and e.inputs_ok_loose
    assert e.named(("cover_doc", "inputs_ok_loose"))["inputs_ok_loose"] == 1.0
