"""toolex.llm.keys: which secrets are known, the forms they are hidden in (raw, percent-encoded,
base64 at any alignment), and what stored text keeps (key-shaped words a model may write)."""

from __future__ import annotations

import base64
from collections.abc import Callable
from urllib.parse import quote

import pytest

from toolex.llm import keys
from toolex.llm.keys import (
    HIDDEN,
    known_secrets,
    redact_secrets,
    redact_text,
    remember_url,
    secret_forms,
    url_secrets,
)


@pytest.fixture(autouse=True)
def clean(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in (*keys.KEY_VARIABLES, *keys.URL_VARIABLES):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(keys, "_remembered", set())


def test_url_secrets_are_the_credentials_and_secret_query_values() -> None:
    found = url_secrets("http://bob:s%40cret-pw@h:1/v1?api_key=qk-123456&model=m&token=tk-654321")
    assert found == ["bob:s%40cret-pw", "bob:s@cret-pw", "s%40cret-pw", "s@cret-pw",
                     "qk-123456", "tk-654321"]  # fmt: skip
    assert url_secrets("http://h/v1") == [] and url_secrets("not a url") == []
    assert url_secrets("http://bob:pw@h/") == ["bob:pw", "bob:pw"]  # too short alone


def test_known_secrets_come_from_the_environment_and_remembered_urls(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-env-key-0123456789")
    monkeypatch.setenv("TOOLEX_COMPAT_API_KEY", "short")  # under MIN_SECRET: not hidden alone
    monkeypatch.setenv("ANTHROPIC_BASE_URL", "https://u:proxy-pass@proxy/")
    remember_url("http://alice:remembered-pw@127.0.0.1:8000/v1")
    assert known_secrets() == [
        "sk-env-key-0123456789", "alice:remembered-pw", "remembered-pw", "u:proxy-pass",
        "proxy-pass",
    ]  # longest first  # fmt: skip


@pytest.mark.parametrize("prefix", [b"", b"x", b"xy", b"Basic:", b"user:"])
@pytest.mark.parametrize("encode", [base64.b64encode, base64.urlsafe_b64encode])
def test_a_secret_inside_base64_is_hidden_at_every_alignment(
    prefix: bytes, encode: Callable[[bytes], bytes]
) -> None:
    secret = "p4ss/w0rd+?~more"
    encoded = encode(prefix + secret.encode() + b" and the rest").decode()
    redacted = next(f for f in secret_forms(secret) if f in encoded)  # one form matches
    assert len(redacted) >= len(secret)  # ... covering the secret's bits, not a fragment
    remember_url(f"http://u:{quote(secret, safe='')}@h/")
    out = redact_secrets(f"Authorization: Basic {encoded}")
    assert HIDDEN in out and redacted not in out


def test_stored_text_keeps_key_shaped_words_printed_text_hides_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-the-real-key-987654")
    text = "use hf_hub_download; key sk-the-real-key-987654; other sk-proj-unrelated1234"
    assert redact_secrets(text) == (
        f"use hf_hub_download; key {HIDDEN}; other sk-proj-unrelated1234"
    )
    assert redact_text(text) == f"use {HIDDEN}; key {HIDDEN}; other {HIDDEN}"


def test_a_percent_encoded_secret_and_url_credentials_are_hidden() -> None:
    remember_url("http://alice:p@ss word!@h/")
    assert redact_secrets("echo p%40ss%20word%21 and ftp://x:y@host/") == (
        f"echo {HIDDEN} and ftp://***@host/"
    )


# Issue 37.12: every encoding an echo may take, by rule rather than by a list of forms.
ECHOES: dict[str, Callable[[str], str]] = {
    "percent-encoded, lower case": lambda s: quote(s, safe="").lower(),
    "every byte percent-encoded": lambda s: "".join(f"%{b:02x}" for b in s.encode()),
    "hex": lambda s: s.encode().hex(),
    "hex, upper case, colon-separated": lambda s: ":".join(f"{b:02X}" for b in s.encode()),
    "\\x escapes": lambda s: "".join(f"\\x{b:02x}" for b in s.encode()),
    "JSON \\u00 escapes, JSON-encoded again": lambda s: "".join(
        f"\\\\u{b:04x}" for b in s.encode()
    ),
    "0x bytes": lambda s: " ".join(f"0x{b:02x}" for b in s.encode()),
    "base64 with a JSON-escaped slash": lambda s: (
        base64.b64encode(s.encode()).decode().replace("/", "\\/")
    ),
}


@pytest.mark.parametrize("echo", list(ECHOES))
def test_a_secret_is_hidden_in_any_encoding(monkeypatch: pytest.MonkeyPatch, echo: str) -> None:
    key = "sk-proj-Zz9/key?with+odd=chars-0123"
    monkeypatch.setenv("OPENAI_API_KEY", key)
    form = ECHOES[echo](key)
    shown = redact_secrets(f"server said [{form}] then")
    # base64 keeps its last characters, which carry bits of the padding too, not the key's alone
    assert shown.startswith(f"server said [{HIDDEN}") and form not in shown, shown


@pytest.mark.parametrize("name", ["code", "credential", "bearer", "session_id", "jwt", "pass"])
def test_oauth_codes_credentials_and_bearers_in_a_query_are_secrets(name: str) -> None:
    url = f"http://h/v1?{name}=value-0123456789&model=m"
    assert url_secrets(url) == ["value-0123456789"]
    assert keys.redact_url(url) == f"http://h/v1?{name}=***&model=m"
