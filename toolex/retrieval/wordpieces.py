"""WordLlama's vectors, with each distinct word's tokens looked up once.

WordLlama's tokenizer (Llama 2's SentencePiece BPE, in Hugging Face ``tokenizers``) costs about
0.2 µs a character: a verify batch of model cards (ToolRet's gorilla) spent ~40% of its CPU
there, on documents that share most of their words, and so did the retriever's index of a
library and its queries. Its pipeline is a normaliser (a "▁" put
first, every space made "▁"), no pre-tokeniser, and BPE over the whole text. No token of its
vocabulary holds a "▁" after another character, so no merge crosses the start of a word (a run
of "▁" and what follows it up to the next "▁"): the BPE of a text is the BPE of its words, one
after the other. Here each distinct word is handed to the BPE model once and the text's tokens
are its words' tokens, in order; the pooling is WordLlama's (the mean of the token rows, added
one after the other, then divided by its norm), so every vector is the model's, bit for bit.
tests/retrieval/test_wordpieces.py compares ids and vectors with the tokenizer's and
WordLlama's own on the bundled sample.

Anything the argument above does not cover goes to the tokenizer as it is: a text holding one
of its added tokens (``</s>`` in a model card's example code is matched before normalising), or
a tokenizer whose pipeline is not the one described (another WordLlama release).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from itertools import chain
from operator import attrgetter
from typing import TYPE_CHECKING, cast

import numpy as np

if TYPE_CHECKING:
    from tokenizers import Tokenizer

_WORD = re.compile("\u2581+[^\u2581]*")
_INSIDE = re.compile("[^\u2581\x00]\u2581")  # a "▁" after another character, inside a token
_ID = attrgetter("id")  # a token's id, read in C
_LIMIT = 1 << 16  # distinct words remembered: a few libraries' worth, then forgotten


class WordPieces:
    """Token ids of texts for one WordLlama tokenizer: ``tokenizer.encode(text,
    add_special_tokens=False).ids``, each distinct word's tokens remembered."""

    def __init__(self, tokenizer: Tokenizer) -> None:
        self._tokenizer = tokenizer
        self._added = tuple(t.content for t in tokenizer.get_added_tokens_decoder().values())
        self._words: dict[str, tuple[int, ...]] = {}
        self.exact = _word_by_word(tokenizer)
        self.size = tokenizer.get_vocab_size(with_added_tokens=True)  # ids are below it

    def ids(self, text: str) -> list[int]:
        if not text:
            return []
        if not self.exact or any(a in text for a in self._added):
            enc = self._tokenizer.encode(text, add_special_tokens=False)
            return [i for i, m in zip(enc.ids, enc.attention_mask, strict=True) if m]
        words = self._words
        pieces = _WORD.findall("\u2581" + text.replace(" ", "\u2581"))
        got = list(map(words.get, pieces))  # in C: a text's words are nearly all known
        if None in got:
            bpe = self._tokenizer.model.tokenize
            if len(words) + len(pieces) > _LIMIT:
                words.clear()
            for i, word in enumerate(pieces):
                if got[i] is None:
                    got[i] = words.get(word) or words.setdefault(word, tuple(map(_ID, bpe(word))))
        return list(chain.from_iterable(cast(list[tuple[int, ...]], got)))  # no None left


def _word_by_word(tokenizer: Tokenizer) -> bool:
    """Whether the tokenizer is the pipeline the module docstring describes, so that a text's
    tokens are its words' tokens. Read from the tokenizer's parts and its vocabulary (0.03
    CPU-s), not from its whole serialisation (its merges too: 0.12 CPU-s, every process that
    loads WordLlama)."""
    normalizer = tokenizer.normalizer
    expected = {
        "type": "Sequence",
        "normalizers": [
            {"type": "Prepend", "prepend": "\u2581"},
            {"type": "Replace", "pattern": {"String": " "}, "content": "\u2581"},
        ],
    }
    model = tokenizer.model
    if normalizer is None or json.loads(normalizer.__getstate__()) != expected:
        return False
    if tokenizer.pre_tokenizer is not None or tokenizer.truncation is not None:
        return False
    if type(model).__name__ != "BPE" or getattr(model, "dropout", None) is not None:
        return False
    if getattr(model, "continuing_subword_prefix", None) or getattr(
        model, "end_of_word_suffix", None
    ):
        return False
    # every token at once, NUL-separated (no token holds one): one search over 32,000 tokens
    return _INSIDE.search("\x00".join(tokenizer.get_vocab(with_added_tokens=False))) is None


def pooled(table: np.ndarray, pieces: WordPieces, texts: Sequence[str]) -> np.ndarray:
    """``wl.embed(texts, norm=True)`` of the WordLlama whose token table is ``table``, bit for
    bit: each text's mean token row, divided by its norm. WordLlama pads each batch of 64 texts to
    its longest, then gathers, masks and sums the padded block; here each text's own rows are
    summed by ``np.add.reduce``, one after the other as NumPy adds them there (padding only adds
    zero rows after them; ``np.add.reduceat`` over a chunk's rows differs in the last bits)."""
    top = table.shape[0] - 1
    # WordLlama clamps out-of-range ids; a tokenizer whose every id is a row needs none
    clamp = pieces.size > table.shape[0]
    sums = np.zeros((len(texts), table.shape[1]), dtype=np.float32)
    counts = np.zeros(len(texts), dtype=np.float32)
    reduce = np.add.reduce
    for row, text in enumerate(texts):
        got = pieces.ids(text)
        if got:
            ids = np.array(got, dtype=np.int64)
            if clamp:
                np.clip(ids, 0, top, out=ids)
            reduce(table[ids], axis=0, dtype=np.float32, out=sums[row])
            counts[row] = len(got)
    out = sums / np.maximum(counts, 1.0)[:, None]
    out /= np.linalg.norm(out, axis=1, keepdims=True)
    return out
