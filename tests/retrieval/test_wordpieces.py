"""WordLlama's embedder reads each distinct word's tokens once (toolex.retrieval.wordpieces):
its token ids and vectors must be the tokenizer's and WordLlama's own, bit for bit."""

from __future__ import annotations

import numpy as np
from tokenizers import Tokenizer

from toolex.judges import embedding
from toolex.judges import evidence as ev
from toolex.judges.base import ToolDoc
from toolex.retrieval.embedders import WordLlamaEmbedder
from toolex.retrieval.wordpieces import WordPieces
from toolex.store import Store

# what the argument of the module's docstring has to survive: runs of spaces, leading and
# trailing ones, a literal "▁", added tokens inside text, newlines, unicode, an empty text
ODD = [
    "",
    " ",
    "   ",
    "get  the   weather ",
    " leading space",
    "a\u2581b \u2581\u2581c",
    "tokenizer.decode(x) </s> and <s>x</s><unk>",
    "line one\nline  two\t\ttabbed",
    "\u00e9t\u00e9 \u2014 caf\u00e9 \U0001f600 \u4e2d\u6587",
    "AutoModelWithLMHead.from_pretrained('flexudy/t5-base-multi-sentence-doctor')",
]


def _sample_texts(store: Store) -> list[str]:
    """Every text the verifier embeds of the bundled sample's documents."""
    from toolex.judges.library import store_tools
    from toolex.loaders import load_stabletoolbench
    from toolex.resources import data_path

    load_stabletoolbench(store, data_path("sample"), name="s")
    tools: list[ToolDoc] = store_tools(store, "s")
    out = [t for tool in tools for t in (ev.about_text(tool), tool.text[:2000], ev.name_text(tool))]
    return list(dict.fromkeys(out))


def test_word_by_word_ids_are_the_tokenizers(store: Store) -> None:
    embedder = WordLlamaEmbedder()
    tokenizer = embedder._wl.tokenizer
    pieces = WordPieces(tokenizer)
    assert pieces.exact  # WordLlama's pipeline is the one the argument holds for
    texts = [*_sample_texts(store), *ODD]
    assert len(texts) > 3000
    for text in texts + texts:  # the second time from the remembered words
        enc = tokenizer.encode(text, add_special_tokens=False)
        kept = [i for i, m in zip(enc.ids, enc.attention_mask, strict=True) if m]
        assert pieces.ids(text) == kept, text


def test_the_vectors_are_wordllamas_own_bit_for_bit(store: Store) -> None:
    embedder = WordLlamaEmbedder()
    texts = [*_sample_texts(store), *ODD]
    mine = embedder.embed(texts)
    assert mine.dtype == np.float32
    # WordLlama's own, 64 texts a call as it pads them; a text with no token (the empty one:
    # a blank one holds "▁") is NaN there and zero here
    with np.errstate(invalid="ignore"):
        theirs = np.concatenate(
            [embedder._wl.embed(texts[at : at + 64], norm=True) for at in range(0, len(texts), 64)]
        )
    finite = np.isfinite(theirs).all(axis=1)
    assert (~finite).sum() == 1 and not mine[~finite].any()
    theirs = theirs[finite] / np.linalg.norm(theirs[finite], axis=1)[:, None]  # as embed() does
    assert mine[finite].tobytes() == theirs.astype(np.float32).tobytes()
    assert embedder.embed([]).shape == (0, embedder.dim)


def test_the_judge_embeds_with_the_retrievers_embedder() -> None:
    embedding._LOADED.pop(embedding.DEFAULT_EMBEDDING, None)
    embed = embedding.wordllama()
    text = ["convert a currency amount"]
    assert embed(text).tobytes() == WordLlamaEmbedder().embed(text).tobytes()


def _small_tokenizer(vocab: dict[str, int], merges: list[tuple[str, str]]) -> Tokenizer:
    """A BPE tokenizer of WordLlama's pipeline (the "▁" normaliser) over a vocabulary of ours."""
    from tokenizers import Tokenizer, models, normalizers

    tok = Tokenizer(models.BPE(vocab, merges))
    tok.normalizer = normalizers.Sequence(
        [normalizers.Prepend("\u2581"), normalizers.Replace(" ", "\u2581")]
    )
    return tok


def test_a_token_across_a_word_start_sends_every_text_to_the_tokenizer() -> None:
    """A vocabulary with a "▁" after another character ("a▁") can merge across the start of a
    word: word by word would not be the tokenizer's answer, so WordPieces asks it each time."""
    chars = {c: i for i, c in enumerate(["\u2581", "a", "b"])}
    crossing = _small_tokenizer(
        {**chars, "\u2581a": 3, "a\u2581": 4}, [("a", "\u2581"), ("\u2581", "a")]
    )
    plain = _small_tokenizer({**chars, "\u2581a": 3}, [("\u2581", "a")])
    assert WordPieces(plain).exact
    pieces = WordPieces(crossing)
    assert not pieces.exact
    for text in ("a a", "ba ab", "aa  b"):
        assert pieces.ids(text) == crossing.encode(text, add_special_tokens=False).ids
