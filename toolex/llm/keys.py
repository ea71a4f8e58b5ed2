"""Secrets around the LLM judges: API keys checked before the first call, credentials kept out of
everything toolex stores or prints.

Keys come from the environment only (``OPENAI_API_KEY``, ``ANTHROPIC_API_KEY``,
``TOOLEX_COMPAT_API_KEY``; toolex.llm.clients reads them). :func:`check_key` refuses a key that
cannot be sent as an HTTP header (a non-ASCII character, a line break or space pasted with it)
with a message naming the variable and the fault, never the key: otherwise the request fails
inside the HTTP library and looks like a transient network fault, retried until every task fails.

A ``compat:`` judge's base URL may carry ``user:password@``; the connection uses it, but a
judge's identity (the ``judge`` column of llm_calls, verdicts, sub-queries, combinations,
expansions; ``--dry-run``; exports; error messages) holds :func:`redact_url`'s form
``http://***@host/v1``. Prefer the key variable to a password in the URL: a URL travels into
shell history and config files.

Servers echo what they were sent (OpenAI's 401 names the key; others put the Authorization
header, ``Basic base64(user:password)`` included, in an error body), so every text toolex stores
from a server (the ledger's errors and answers, stage failures, verdict reasons) passes through
:func:`redact_secrets` first, and every message it prints through :func:`redact_text`. The known
secrets are the key variables' values, the credentials and secret query values of the base URL
variables and of every URL a client was built for (:func:`remember_url`), each also as it looks
percent-encoded or inside base64 (at any alignment).
"""

from __future__ import annotations

import base64
import os
import re
import threading
from functools import lru_cache
from urllib.parse import parse_qsl, quote, unquote, urlencode, urlsplit, urlunsplit

from toolex.errors import InputError, ModelUnavailableError

REDACTED = "***"
# Query parameters that carry a secret (``?api_key=...``, ``?token=...``, an OAuth ``?code=``,
# ``?credential=``, ``?bearer=``, a ``?session=``): any name holding one of these words.
_SECRET_PARAM = re.compile(
    r"(key|token|secret|pass|pwd|sig|auth|code|credential|bearer|session|jwt|cookie|private)",
    re.I,
)
# Shapes of provider keys (OpenAI sk-/sk-proj-, Anthropic sk-ant-, Groq gsk_, Hugging Face hf_,
# Google AIza, xAI xai-), and any long unbroken token mixing letters and digits.
_KEY_SHAPE = re.compile(
    r"^(sk-|sk_|gsk_|hf_|xai-|AIza|pk-|rk-)\S{8,}$|^(?=\S*\d)(?=\S*[A-Za-z])[A-Za-z0-9_\-.]{32,}$"
)


def redact_url(url: str) -> str:
    """``url`` with any ``user:password@`` replaced by ``***@`` and the values of secret-looking
    query parameters by ``***``; anything that is not a URL with a host is returned unchanged."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return url
    netloc = parts.netloc
    if "@" in netloc:
        netloc = f"{REDACTED}@{netloc.rpartition('@')[2]}"
    query = parts.query
    if query:
        pairs = parse_qsl(query, keep_blank_values=True)
        if any(_SECRET_PARAM.search(k) for k, _ in pairs):
            query = urlencode(
                [(k, REDACTED if _SECRET_PARAM.search(k) else v) for k, v in pairs], safe="*"
            )
    if netloc == parts.netloc and query == parts.query:
        return url
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


_USERINFO = re.compile(r"(?i)\b([a-z][a-z0-9+.\-]*://)[^/@\s]*@")
# A provider key inside longer text (no word boundary: "openaisk-proj-..." hides one too).
_KEY_TOKEN = re.compile(r"(sk-|sk_|gsk_|hf_|xai-|AIza)[A-Za-z0-9_\-]{8,}")
KEY_VARIABLES = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "TOOLEX_COMPAT_API_KEY")
HIDDEN = "<key hidden>"


# Variables holding a base URL the SDKs read when toolex names none: their credentials are
# secrets too.
URL_VARIABLES = ("OPENAI_BASE_URL", "ANTHROPIC_BASE_URL")
# Shortest value hidden wherever it appears: a shorter password would blank ordinary words in
# the texts it is hidden from (its ``user:password`` pair and that pair's base64 are still hidden).
MIN_SECRET = 6
_remembered: set[str] = set()  # secrets of URLs this process built clients for
_remembered_lock = threading.Lock()


def url_secrets(url: str) -> list[str]:
    """The secrets a URL carries: ``user:password`` (raw and decoded), the password, and the
    values of secret-looking query parameters; [] for anything that is not a URL."""
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return []
    found = []
    userinfo = parts.netloc.rpartition("@")[0] if "@" in parts.netloc else ""
    if userinfo:
        found += [userinfo, unquote(userinfo)]
        password = userinfo.partition(":")[2]
        found += [p for p in (password, unquote(password)) if len(p) >= MIN_SECRET]
    for key, value in parse_qsl(parts.query, keep_blank_values=True):
        if _SECRET_PARAM.search(key) and len(value) >= MIN_SECRET:
            found.append(value)
    return found


def remember_url(url: str | None) -> None:
    """Hide ``url``'s credentials from every text redacted in this process from now on: called
    for the base URL of each client built, before its first request."""
    if url:
        with _remembered_lock:
            _remembered.update(url_secrets(url))


def known_secrets() -> list[str]:
    """Every secret this process knows of, longest first: the key variables' values, the
    credentials of the base URL variables, and those of :func:`remember_url`."""
    found = set()
    for name in KEY_VARIABLES:
        value = (os.environ.get(name) or "").strip()
        if len(value) >= MIN_SECRET:
            found.add(value)
    for name in URL_VARIABLES:
        found.update(url_secrets(os.environ.get(name) or ""))
    with _remembered_lock:
        found.update(_remembered)
    return sorted(found, key=lambda s: (-len(s), s))


# How a server may write each byte of a secret in hex: bare, or after one of these escapes
# (``\x73``, JSON's ``\u0073``, ``%73``, ``0x73``, an HTML ``&#x73;``; a backslash doubled
# where the text was itself JSON-encoded, as a forced tool's input is), with at most a short
# separator between bytes (``73:6b``, ``73 6b``).
_HEX_BYTE = r"(?:\\{{1,2}}x|\\{{1,2}}u00|%|0x|&\#x)?{:02x};?"
_HEX_GAP = r"[\s:,-]?"


def _pattern(secret: str) -> str:
    """A regular expression (to match ignoring case) for ``secret`` written any way an echo
    may write it: each character as itself or percent-encoded (upper or lower case, as a
    client or a server encodes it), the whole in hex (any case, any escape of
    :data:`_HEX_BYTE`), or base64 (:func:`secret_forms`)."""
    each = "".join(
        f"(?:{re.escape(c)}|{''.join(f'%{b:02x}' for b in c.encode('utf-8'))})" for c in secret
    )
    hexed = _HEX_GAP.join(_HEX_BYTE.format(b) for b in secret.encode("utf-8"))
    # base64's "/" may come JSON-escaped ("\/")
    encoded = sorted(
        (re.escape(f).replace("/", r"\\?/") for f in secret_forms(secret)), key=len, reverse=True
    )
    return "|".join([each, hexed, *encoded])


@lru_cache(maxsize=16)
def _matcher(secrets: tuple[str, ...]) -> re.Pattern[str] | None:
    """One pattern for every form of every secret in ``secrets`` (longest secret first)."""
    if not secrets:
        return None
    return re.compile("|".join(f"(?:{_pattern(s)})" for s in secrets), re.IGNORECASE)


def secret_forms(secret: str) -> set[str]:
    """How ``secret`` can appear in a server's text: as is, percent-encoded, and base64-encoded
    (standard and URL-safe) at each of the three alignments it may have inside a longer
    encoded string (``Basic base64(user:password)``), where only the characters that carry the
    secret's bits alone are kept."""
    forms = {secret, quote(secret, safe="")}
    raw = secret.encode("utf-8")
    for shift in range(3):
        bits = (shift + len(raw)) * 8
        start, end = -(-shift * 8 // 6), bits // 6  # characters made of the secret's bits only
        for encode in (base64.b64encode, base64.urlsafe_b64encode):
            core = encode(b"\0" * shift + raw).decode("ascii")[start:end]
            if len(core) >= 8:
                forms.add(core)
    return forms


def redact_secrets(text: str) -> str:
    """``text`` without any known secret in any encoding an echo may give it (:func:`_pattern`:
    as is, percent-encoded in either case, in hex with or without escapes, in base64), each
    replaced by ``<key hidden>``, and without any URL's ``user:password@``. The one place
    that decides what a secret looks like: toolex passes every text a server sent through it
    before storing it (the ledger, answers and so verdict reasons and sub-queries, errors,
    stage failures), and every message it prints (:func:`redact_text`). Unlike
    :func:`redact_text`, it leaves key-shaped words alone (a model's reason may name
    ``hf_hub_download``)."""
    if not text:
        return text
    text = _USERINFO.sub(lambda m: f"{m.group(1)}{REDACTED}@", text)
    secrets = tuple(known_secrets())
    matcher = _matcher(secrets)
    if matcher is None or not _may_hold(text, secrets):
        return text
    return matcher.sub(HIDDEN, text)


_HEX_NOISE = re.compile(r"\\+x|\\+u00|%|0x|&#x|[;\s:,-]")


def _may_hold(text: str, secrets: tuple[str, ...]) -> bool:
    """Whether ``text`` may hold one of ``secrets`` in a form :func:`_pattern` matches: a quick
    look through three normalised copies of the text (lower case; percent-decoded; hex with
    its escapes and separators dropped) and the base64 forms, so that the full pattern, ~40 ms
    on 20,000 characters, runs only on the rare text that needs it."""
    lower = text.lower()
    decoded = unquote(text).lower() if "%" in text else lower
    bare = _HEX_NOISE.sub("", lower)
    for wanted, hexed, forms in _probes(secrets):
        if wanted in lower or wanted in decoded or hexed in bare:
            return True
        if any(form in text for form in forms) or "\\/" in text:
            return True
    return False


@lru_cache(maxsize=16)
def _probes(secrets: tuple[str, ...]) -> list[tuple[str, str, tuple[str, ...]]]:
    """Per secret: itself in lower case, its bytes in hex, its base64 forms (for _may_hold)."""
    return [(s.lower(), s.encode("utf-8").hex(), tuple(secret_forms(s))) for s in secrets]


def redact_text(text: str) -> str:
    """``text`` (a judge spec, an error message) as it may be shown: every
    ``scheme://user:password@`` as ``scheme://***@``, every provider-key-shaped token and every
    known secret (:func:`redact_secrets`) as ``<key hidden>``. The CLI passes each error
    message and log line through it before printing."""
    return _KEY_TOKEN.sub(HIDDEN, redact_secrets(text))


def looks_like_key(text: str) -> bool:
    """True for a value shaped like an API key (so an error about it must not show it)."""
    return bool(_KEY_SHAPE.match(text.strip()))


def shown(text: str) -> str:
    """``text`` as an error message may show it: credentials redacted, a key-like value hidden."""
    if looks_like_key(text):
        return "<a value shaped like an API key, not shown>"
    return repr(redact_text(redact_url(text)))


def check_key(env: str, key: str | None) -> str | None:
    """``key`` (from the environment variable ``env``) if an HTTP header can carry it, else
    ModelUnavailableError saying what is wrong with it, never what it is. None and "" pass
    through (the caller decides whether a key is required)."""
    if not key:
        return key
    problem = None
    if key != key.strip():
        ends = key[-1] if key[-1].isspace() else key[0]
        kind = "a line break (CR/LF)" if ends in "\r\n" else "whitespace"
        where = "ends" if key[-1].isspace() else "starts"
        problem = f"{where} with {kind}; it was probably pasted with it"
    elif any(c.isspace() for c in key):
        problem = "contains whitespace"
    else:
        bad = next((i for i, c in enumerate(key) if not (c.isascii() and c.isprintable())), None)
        if bad is not None:
            problem = (
                f"has a non-ASCII or control character at position {bad + 1} of {len(key)} "
                "(a typographic quote, dash or invisible space pasted with it?)"
            )
    if problem is None:
        return key
    raise ModelUnavailableError(
        f"the API key in the environment variable {env} {problem}; an HTTP header cannot "
        f"carry it. Set {env} again with the key alone (the key is not shown here)"
    )


def check_base_url(value: str | None, field: str) -> str | None:
    """``value`` if it is an http(s) URL with a host, else InputError naming ``field``; the value
    is shown only when it is not shaped like a key (a key pasted into the wrong field)."""
    if value is None:
        return None
    try:
        parts = urlsplit(value.strip())
        ok = parts.scheme in ("http", "https") and bool(parts.hostname)
    except ValueError:
        ok = False
    if ok:
        return value
    hint = (
        " (it looks like an API key: keys belong in the environment variables OPENAI_API_KEY, "
        "ANTHROPIC_API_KEY or TOOLEX_COMPAT_API_KEY, never in a config file)"
        if looks_like_key(value)
        else f": {shown(value)}"
    )
    raise InputError(f"expected an http:// or https:// URL with a host{hint}", field=field)
