"""The cheaper forms the rules use for speed (issue 34) say what the forms they replaced said:
a name found by ``str.find`` with the pattern's boundaries, a provider blanked without a pattern,
a name and a description split apart rather than joined. Each is compared with the expression
it stands for, on hand-picked edge cases and on a seeded sweep of short strings of the
characters that decide them."""

from __future__ import annotations

import random
import re

import pytest

from toolex.judges.lexicon import char_before, content_of, words_of
from toolex.judges.outputs import _blanked
from toolex.judges.platform import _KIND_AFTER, _writes
from toolex.judges.scope import _mentions
from toolex.judges.step import step_of, written
from toolex.judges.vocabulary import _GROUP_OF, _UNIT_OF, keys, keys_of, synonym_keys
from toolex.tooldoc import fields as df


def _mentions_by_pattern(haystack: str, term: str) -> bool:
    return bool(re.search(r"(?<![a-z0-9])" + re.escape(term.lower()) + r"(?![a-z0-9])", haystack))


def _sweep(alphabet: str, seed: int, n: int = 20_000) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    return [
        (
            "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12))),
            "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 3))),
        )
        for _ in range(n)
    ]


@pytest.mark.parametrize(
    ("haystack", "term", "expected"),
    [
        ("get weather in paris", "Paris", True),
        ("parisian food", "paris", False),
        ("x-twitter api", "twitter", True),
        ("twitter2 feed", "twitter", False),
        ("the c# client", "c#", True),
        ("kick.com streams", "Kick.com", True),
        ("abcabc", "abc", False),
        ("abc abc", "abc", True),
    ],
)
def test_mentions_by_find_is_the_boundary_pattern(haystack: str, term: str, expected: bool) -> None:
    assert _mentions(haystack, term) is expected
    assert _mentions_by_pattern(haystack, term) is expected


def test_mentions_by_find_agrees_with_the_pattern_on_a_sweep() -> None:
    differ = [
        (h, t) for h, t in _sweep("ab1 .-_#Aé", 34) if _mentions(h, t) != _mentions_by_pattern(h, t)
    ]
    assert differ == []


@pytest.mark.parametrize(
    ("text", "name", "expected"),
    [
        ("Uses the Wayfair API to list WAYFAIR sofas", "wayfair", "Uses the   API to list   sofas"),
        ("aaa", "aa", " a"),
        ("nothing here", "zzz", "nothing here"),
        ("Café API by café", "café", "  API by  "),
    ],
)
def test_blanked_is_the_case_blind_substitution(text: str, name: str, expected: str) -> None:
    assert _blanked(text, name) == expected
    assert re.sub(rf"(?i){re.escape(name)}", " ", text) == expected


def test_blanked_agrees_with_the_substitution_on_a_sweep() -> None:
    differ = [
        (h, t)
        for h, t in _sweep("aAbB .-_(*é", 35)
        if _blanked(h, t) != re.sub(rf"(?i){re.escape(t)}", " ", h)
    ]
    assert differ == []


@pytest.mark.parametrize(
    "texts",
    [
        ("getUserID", "Returns the user's ID. Uses HTTPClient"),
        ("song_download.", "Downloads a song"),
        ("", "A"),
        ("ABC", "Def ghi"),
        ("a1", "2b", "XMLParser", ""),
    ],
)
def test_texts_split_apart_are_the_joined_text_split(texts: tuple[str, ...]) -> None:
    assert words_of(*texts) == df.split_words(" ".join(texts))
    assert content_of(*texts) == df.content_tokens(" ".join(texts))


def test_keys_of_reads_repeated_words_once_to_the_same_keys() -> None:
    words = df.split_words("Movies movie MOVIE 2024 cities city temperatures in celsius movies")
    expected: set[str] = set()
    for word in words:
        if not word.isdigit():
            expected |= keys(word)
    assert keys_of(words) == frozenset(expected)
    assert {"movie", "city", "celsius"} <= keys_of(words)


def test_char_before_is_the_stripped_prefix_last_character() -> None:
    rng = random.Random(36)
    texts = [
        "".join(rng.choice("ab. \t\n\u2003!") for _ in range(rng.randint(0, 10)))
        for _ in range(5000)
    ]
    differ = [
        (t, at)
        for t in texts
        for at in range(len(t) + 1)
        if char_before(t, at) != t[:at].rstrip()[-1:]
    ]
    assert differ == []


@pytest.mark.parametrize(
    ("subquery", "text"),
    [
        ("Get the weather in Paris", "I'm going to Paris; what's the weather? Show 3 days."),
        ("getUserID for 'bob'", ""),
        ("", "Find movies with Tom Hanks"),
        ("convert 5 km", "HTTPClient2Go and XMLParser, top 10 songs"),
    ],
)
def test_a_step_read_text_by_text_is_the_step_read_joined(subquery: str, text: str) -> None:
    step = step_of(subquery, text)
    joined = df.split_words(f"{subquery} {text}")
    assert step.keys == keys_of(joined) | synonym_keys(joined)
    assert step.said == frozenset(df.content_tokens(subquery)) | frozenset(df.content_tokens(text))
    assert written(step) == frozenset(joined)


def _tail(name: str) -> str:
    return "" if len(name.split()) > 1 else _KIND_AFTER


def test_a_platform_written_is_found_without_its_pattern_when_absent() -> None:
    cases = _sweep("aAB .-_Tt", 37, 5000) + [
        ("the Ab api", "Ab"),
        ("Ab API", "Ab"),
        ("xAb API", "Ab"),
    ]
    differ = [
        (text, name)
        for text, name in cases
        if name.split()
        and any(w[:1].isupper() for w in name.split())
        and _writes(text, name)
        != bool(re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-]){_tail(name)}", text))
    ]
    assert differ == []


def _keys_as_defined(word: str) -> frozenset[str]:
    forms = {word, df.stem(word)}
    if word.endswith("ies") and len(word) > 4:
        forms |= {word[:-3] + "y", word[:-1]}
    if word.endswith("es") and len(word) > 4:
        forms.add(word[:-2])
    if word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        forms.add(word[:-1])
    out = set(forms)
    for form in forms:
        out |= {k for k in (_GROUP_OF.get(form), _UNIT_OF.get(form)) if k}
    return frozenset(out)


def test_keys_are_the_forms_groups_and_units_of_a_word() -> None:
    rng = random.Random(38)
    words = ["movies", "cities", "series", "class", "kms", "images", "ies", "yes", "bus", "ss"]
    words += ["".join(rng.choice("iesmkab") for _ in range(rng.randint(1, 7))) for _ in range(5000)]
    assert [w for w in words if keys(w) != _keys_as_defined(w)] == []


def _written_out_by_pattern(text: str, name: str) -> bool:
    return bool(re.search(r"(?<![\w])" + re.escape(name) + r"(?![\w])", text))


@pytest.mark.parametrize(
    ("text", "name", "expected"),
    [
        ("call get_weather now", "get_weather", True),
        ("call get_weather_v2", "get_weather", False),
        ("x_get_weather", "get_weather", False),
        ("st::quote.", "st::quote", True),
        ("/api/tracking?id=1", "/api/tracking", True),
        ("éget_weather", "get_weather", False),
        ("get_weather get_weather2", "get_weather", True),
    ],
)
def test_written_out_by_find_is_the_word_boundary_pattern(
    text: str, name: str, expected: bool
) -> None:
    assert df.written_out(text, name) is expected
    assert _written_out_by_pattern(text, name) is expected


def test_written_out_agrees_with_the_pattern_on_a_sweep() -> None:
    differ = [
        (h, t)
        for h, t in _sweep("ab1 ._:/é٣_", 36)
        if df.written_out(h, t) != _written_out_by_pattern(h, t)
    ]
    assert differ == []
