"""Word lists the offline judge reads documents with: operation classes and input synonyms.

Kept apart from the judge so the evidence reader, the decomposer and the audit use one list each
(one owner per rule). They are deliberately general (verbs and input kinds of any API library),
never a benchmark's vocabulary.
"""

from __future__ import annotations

import re
from functools import lru_cache

from toolex.tooldoc import fields as df

# A pattern built from a document's or a step's word ("(?<![a-z0-9])twitter(?![a-z0-9])"),
# compiled once: the rules build thousands of them, more than ``re``'s own cache of 512 holds,
# so through ``re.search`` each was compiled again on nearly every pair.
regex = lru_cache(maxsize=1 << 14)(re.compile)


def char_before(text: str, at: int) -> str:
    """``text[:at].rstrip()[-1:]``: the last character before ``at`` that is not white space
    ('' when none), without copying the prefix (a rule asks it at every capitalised word of a
    long request: a copy each time is quadratic in the request's length)."""
    i = at - 1
    while i >= 0 and text[i].isspace():
        i -= 1
    return text[i] if i >= 0 else ""


def words_of(*texts: str) -> list[str]:
    """``df.split_words(" ".join(texts))``, each text split on its own: no word crosses the
    space between two texts, and a description is then split once (``split_words`` remembers a
    string) for every rule that reads it beside a name, not once per new joined string."""
    return [w for text in texts for w in df.split_words(text)]


def content_of(*texts: str) -> list[str]:
    """``df.content_tokens(" ".join(texts))``, each text split on its own (``words_of``)."""
    return [df.stem(w) for w in words_of(*texts) if len(w) > 1 and w not in df.STOPWORDS]


# Canonical operation classes, keyed by the stems that signal them.
OPERATIONS: dict[str, tuple[str, ...]] = {
    "search": ("search", "find", "look", "lookup", "discover", "match"),
    "calculate": (
        "calculate",
        "compute",
        "count",
        "estimate",
        "measure",
        "sum",
        "multiply",
        "divide",
        "add",
        "subtract",
        "solve",
        "evaluate",
    ),
    "convert": ("convert", "transform", "encode", "decode", "format", "parse"),
    "translate": ("translate",),
    "create": ("create", "register", "book", "schedule", "make", "post", "open", "insert"),
    "update": ("update", "modify", "edit", "change", "set", "rename", "reset"),
    "delete": ("delete", "remove", "cancel", "clear", "unsubscribe"),
    "send": ("send", "notify", "share", "publish", "forward"),
    "check": ("check", "verify", "validate", "detect", "test", "confirm"),
    "generate": ("generate", "random", "create_random", "draw", "produce", "compose"),
    "analyze": ("analyze", "analyse", "classify", "predict", "recognize", "summarize", "score"),
    "download": ("download", "upload", "export", "import"),
    "retrieve": (
        "get",
        "fetch",
        "retrieve",
        "obtain",
        "list",
        "query",
        "read",
        "show",
        "give",
        "access",
        "load",
        "view",
        "display",
        "provide",
    ),
}
OP_BY_STEM = {df.stem(w): op for op, words in OPERATIONS.items() for w in words}
# Operations that can stand in for each other (a search endpoint that lists results retrieves).
COMPATIBLE = {frozenset({"search", "retrieve"}), frozenset({"generate", "create"})}

SYNONYMS = [
    {"q", "query", "keyword", "term", "search", "text", "string"},
    {"lat", "latitude"},
    {"lon", "lng", "longitude", "long"},
    {"city", "location", "place", "address", "area", "region"},
    {"country", "nation"},
    {"zip", "zipcode", "postcode", "postal"},
    {"ticker", "symbol", "stock"},
    {"lang", "language", "locale"},
    {"url", "link", "website", "domain", "site"},
    {"date", "day", "time", "datetime", "timestamp"},
    {"num", "number", "amount", "count", "limit", "size", "length"},
]
SYNONYM_OF = {df.stem(w): i for i, group in enumerate(SYNONYMS) for w in group}

# The verbs API and function documentation uses for what a tool does, in base form: the offline
# decomposer names a step with the tool's OWN verb (drop, transcribe, identify) rather than the
# nearest of the operation classes above, which turned "drop database" into "Retrieve drop
# database". General English, not any one benchmark's vocabulary.
VERBS = frozenset(
    """
    accept add aggregate analyse analyze annotate answer append apply approve archive assign
    authenticate authorize autocomplete block book browse build buy calculate cancel capture
    categorize change charge check classify clean clear close collect combine compare compile
    complete compose compress compute configure confirm connect convert copy count create crop
    decode decrypt delete deposit describe design detect determine disable discover display
    divide download draw drop edit enable encode encrypt enhance enroll estimate evaluate execute
    expand explain export extract fetch filter find fix flag follow forecast format generate get
    group guess hash identify import infer insert install invite join label launch like link
    list load locate lock log login logout look lookup make manage map mark match measure merge
    modify monitor move multiply normalize notify obtain open optimize order paraphrase parse
    pause pay ping place plan play post predict preview print process produce publish purchase
    push query rank rate read recognize recommend record redeem refresh register reject reload
    remove rename render rent reorder replace reply report request reserve reset resize resolve
    restore resume retrieve return reverse review rewrite rotate round run save scan schedule
    score scrape search segment select sell send set share shorten show sign simplify solve sort
    spell split start stop stream submit subscribe subtract suggest summarize swap switch sync
    synthesize tag test track trade transcribe transfer transform translate trigger unblock
    unfollow unlock unsubscribe update upload upscale validate verify view vote watch withdraw
    write
    """.split()  # noqa: SIM905 - a word list reads better as text
)


@lru_cache(maxsize=1 << 16)  # asked of each word of every name and description a rule reads
def base_verb(word: str) -> str | None:
    """``word`` as a base-form verb of ``VERBS`` ("Fetches" -> "fetch", "lists" -> "list")."""
    w = word.lower()
    for form in (
        w,
        w[:-3] + "y" if w.endswith("ies") else "",
        w[:-2] if w.endswith("es") else "",
        w[:-1] if w.endswith("s") else "",
    ):
        if form in VERBS:
            return form
    return None


def operation_of(*texts: str) -> str | None:
    """The operation class of the first signalling word of ``texts``, read in order (a tool's
    name, then its description), or None when no word signals one."""
    for text in texts:
        for word in df.split_words(text):
            op = OP_BY_STEM.get(df.stem(word))
            if op:
                return op
    return None


def word_set(text: str) -> frozenset[str]:
    """The words of ``text``: how a word list is written here (it reads better as text)."""
    return frozenset(text.split())


# Verbs that name one operation (base forms; a verb may sit in two groups): two endpoints of one
# provider whose names lead or end with verbs of no common group do two things ("generate_primes"
# / "count_primes", OpenBankAccount / ModifyBankAccount, states_search / states_list). Reading
# verbs ("get", "fetch", ...) form one group, so "Get X" and "Fetch X" stay one operation.
# Measuring reads a quantity off the world (a sensor, a device) where calculating works it out
# from given inputs: two acts ("measureCurrent" / "calculateCurrent").
OPERATION_GROUPS: tuple[frozenset[str], ...] = tuple(
    word_set(group)
    for group in (
        "search find lookup look query locate discover",
        "get fetch retrieve obtain show view display read return provide give load",
        "calculate compute determine estimate count find",
        "measure monitor track detect",
        "generate create make produce build compose add insert register open",
        "convert transform",
        "send post submit publish share",
        "check verify validate test confirm",
        "delete remove clear drop cancel close",
        "update modify edit change set rename replace",
        "download export save",
        "predict forecast infer estimate classify",
    )
)
READING_VERBS = OPERATION_GROUPS[1]


# Operations that undo or mirror each other (base verbs; either order): never equivalents.
INVERSE_VERBS: tuple[tuple[str, str], ...] = tuple(
    (a, b)
    for a, b in (
        pair.split("/")
        for pair in """
    create/delete add/remove add/delete insert/delete encode/decode encrypt/decrypt
    compress/decompress serialize/deserialize upload/download import/export buy/sell
    deposit/withdraw follow/unfollow subscribe/unsubscribe lock/unlock block/unblock
    enable/disable activate/deactivate start/stop open/close login/logout register/unregister
    install/uninstall connect/disconnect attach/detach mute/unmute pause/resume push/pop
    increase/decrease shorten/expand zip/unzip archive/unarchive pin/unpin like/unlike
    book/cancel schedule/cancel send/receive encode/parse tokenize/detokenize split/merge
    split/join add/subtract multiply/divide upvote/downvote approve/reject next/previous
    write/read generate/read generate/scan generate/decode create/scan encode/scan
    """.split()  # noqa: SIM905 - a word list reads better as text
    )
)
# Parameters whose value is content the user hands over (the text a QR code encodes, the query,
# the number), stems: the request states them whatever they are called.
PAYLOAD_WORDS = frozenset(
    df.stem(w)
    for w in word_set(
        """
        text content data message body input query q string value url link expression
        prompt sentence word words html code image file number num list array matrix
        values keyword keywords term search payload document doc source target phrase
        question answer
        """
    )
)
# Identifiers with a public scheme, stems: valid on every platform that takes them.
PUBLIC_IDS = frozenset(
    df.stem(w)
    for w in word_set(
        """
        isbn imdb tmdb ticker symbol ip ipv4 ipv6 email mail url uri domain zip zipcode
        postcode postal phone msisdn iata icao iso currency country lat lng lon latitude
        longitude vin doi issn upc ean gtin asin swift iban bic mac hex color language
        lang locale timezone coordinate coordinates geohash
        """
    )
)
# Parameters that say which platform, site, country ... a tool serves, stems: a tool with one is
# generic over that scope (a "scores by league" API serves the NBA).
SCOPE_PARAMS = frozenset(
    df.stem(w)
    for w in word_set(
        """
        platform site source store shop market marketplace exchange country region league
        sport game network provider service channel language lang locale domain website
        """
    )
)
# Capitalised words of the trade, not names of a platform or place.
GENERIC_ACRONYMS = word_set(
    """
    url uri zip qr sms svg sql api apis id ids pdf csv json html xml http https ip gps usd eur
    gbp jpy ai ml nlp ocr tts stt seo vat iso utc gmt otp dns ssl tls mp3 mp4 jpg jpeg png gif
    rss faq crm erp kpi uuid hex rgb hsl cmyk vin isbn upc ean iban swift bic mac imei sim cpu
    gpu ram os ui ux sdk cli rest soap ftp smtp imap pop3 md5 sha sha256 base64 ascii utf utf8
    ttl dob eta pin atm
    """
)
# Name words that say nothing about which object or variant a tool serves.
GENERIC_NAME_WORDS = word_set(
    """
    get fetch retrieve list show find search lookup query info information data detail details
    all by api new the a an of for to in on v1 v2 v3 endpoint
    """
)
# Words that name a size, tier or version of one thing (t5-base vs t5-large), not another thing.
VARIANT_WORDS = word_set(
    """
    tiny mini small base medium large xl xxl big huge lite light distil distilled fast pro plus
    basic advance advanced ultra premium free simple quick full latest
    """
)
