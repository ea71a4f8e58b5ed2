"""Stage 3a: assemble, rank and pre-filter combinations, storing only what the audit can take.

Numbers in parentheses are the files of sql/stages/4_assemble/, in the order they run. For every
ready query (all verdicts in, no combinations yet): the accepted sets of its slots (01; one tool
may serve two slots) and their RRF terms (02) go to ``toolex.pipeline.kbest``, which enumerates
the Cartesian product best first (rrf DESC, items DESC) without building it. The dependent pairs
of its original — explicit edges (05) and hand-offs the docs show (platform_rule, 04) — are
stored (06); a combination splitting a pair across platforms (11), or replacing a
producer/consumer whose docs cannot hand the edge's value on (12), is rejected without an audit
call, and what could not be checked is recorded (17). A combination the rules let through whose
tool set the query already holds (the original's, or a better-ranked one's: (B, A) after (A, B))
is dropped and counted (22): alternatives are distinct tool sets, one per set, the best ranked.

The audit budget is ``audit_cap`` when given, else ``safety_limit`` (audit every combination, as
the paper does, up to that many per query). Enumeration stops once a query has ``budget``
pending combinations or its product is spent: rejected and repeated ones do not use the budget,
so it runs in
rounds (enumerate, count what is pending, size the next round from the rule's yield so far).
Each write batch of a round is staged (08), judged by the rules, cut past its query's
budget-th pending combination (13, 14), and kept (15): the rule's rejections are counted per
query and dropped, the rest joins its group, which toolex.expansions stores once complete
(``store_assembled``). So each statement costs what one batch or group holds, never what was
stored before, and what a query holds follows its budget, never how much of its product the rule
threw away.

Stored: the original (combo 0, always, its rank counted when the enumeration stopped above it)
and the pending ones, numbered and ranked exactly as when the whole product was stored (the
numbers of the rejected and repeated ones left as gaps). Counted per query
(``expansions.count_products``, schemas 064, 066 and 071): the rule's rejections within the budget
(reported as rejected_platform), the repeats of a kept tool set within it (repeated) and the rest
of the product (unstored, reported as cut). The first REASONS_KEPT rejections of each
query are stored with their members and the rule's reason (rule_rejections, 20 and 21), so a
user can see why without the assembly holding what the rule rejects. Queries are assembled in
groups of about CHUNK stored combinations, one transaction each, so an interruption leaves a
query unassembled, and the next run assembles it whole.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Iterator
from dataclasses import dataclass, field

import pyarrow as pa

from toolex import expansions
from toolex.pipeline import kbest, platform_rule, queries
from toolex.pipeline.settings import AUDIT_CAP, AUDIT_SAFETY_LIMIT, PLATFORM_RULE
from toolex.pipeline.stage import StageContext, StageCounts, write_rows
from toolex.runs.rrf import RRF_K
from toolex.sqlrunner import Params
from toolex.store import Store

EDGE_FIT_SCHEMA = pa.schema(
    [
        ("query_id", pa.string()),
        ("slot", pa.int32()),
        ("item_id", pa.string()),
        ("value", pa.string()),
        ("role", pa.string()),
        ("other_slot", pa.int32()),
        ("source", pa.string()),
        ("fit", pa.string()),
    ]
)
COMBINATION_SCHEMA = pa.schema(
    [
        ("query_id", pa.string()),
        ("combo_id", pa.int32()),
        ("rrf", pa.float64()),
        ("rrf_rank", pa.int32()),
        ("is_original", pa.bool_()),
        ("items", pa.list_(pa.string())),
    ]
)
# Combinations per Arrow batch written to the staging tables and judged there: a few MB,
# whatever the product (the batch is the most a rule that rejects everything makes DuckDB hold).
WRITE_BATCH = 20_000
# Combinations stored per transaction, about: DuckDB holds a transaction's rows, their index
# entries and the rules' updates in memory until it commits (about 1 KB per combination), so
# the queries are assembled in groups, each committed on its own (~50-100 MB at a time).
CHUNK = 50_000
# A round enumerates at most this many times what the query enumerated before it, so a rule that
# rejects nearly everything costs a few rounds, never one unbounded one.
GROWTH = 4
# combinations.rrf_rank is an INTEGER: an original ranked beyond it keeps an unknown (NULL) rank.
MAX_RANK = 2**31 - 1
# Rejections stored per query with their reason, the best ranked (table rule_rejections, schema
# 068; `toolex stats --rejections`); the rest are counted only. A query whose product the rule
# rejects nearly whole thus stores this many rows, never what it rejected.
REASONS_KEPT = 20


@dataclass
class Product:
    """One query's product: its slots (best term first) and how far it has been enumerated."""

    query_id: str
    slots: list[list[tuple[float, str]]]
    original: tuple[str, ...] | None  # None when a reference is not accepted in its slot
    ranked: int = 0  # combinations enumerated so far, ranked 1..ranked
    original_rank: int | None = None
    spent: bool = False
    want: int = 0  # non-original combinations the next round takes
    _rest: Iterator[tuple[float, tuple[str, ...]]] | None = field(default=None, repr=False)

    @property
    def size(self) -> int:
        return kbest.product_size(self.slots)

    def take(self, batch: Batch) -> None:
        """Enumerate the next ``want`` non-original combinations (fewer if the product ends)."""
        if self._rest is None:  # resume after what earlier rounds took
            self._rest = itertools.islice(kbest.best_first(self.slots), self.ranked, None)
        taken = 0
        while taken < self.want:
            combination = next(self._rest, None)
            if combination is None:
                self.spent = True
                break
            rrf, items = combination
            self.ranked += 1
            if items == self.original:
                self.original_rank = self.ranked
                batch.add(self.query_id, 0, rrf, self.ranked, items)
                continue
            # numbered in rank order, the original (combo 0) skipped
            combo_id = self.ranked - (self.original_rank is not None)
            batch.add(self.query_id, combo_id, rrf, self.ranked, items)
            taken += 1

    def release(self) -> None:
        """Free the enumeration's heap between rounds; ``take`` rebuilds it when needed."""
        self._rest = None

    def next_round(self, shortfall: int, pending: int) -> None:
        """Size the next round from the rule's yield so far: enough to fill the shortfall if
        the rule keeps rejecting at the same rate, a quarter more, at most GROWTH times over."""
        taken = self.ranked - (self.original_rank is not None)
        guess = math.ceil(1.25 * shortfall * taken / pending) if pending else GROWTH * taken
        self.want = max(shortfall, min(guess, GROWTH * taken))


class Batch:
    """Combinations on their way to their group, staged through Arrow and judged every
    WRITE_BATCH."""

    def __init__(self, store: Store, params: Params, budget: int) -> None:
        self.store, self.params, self.budget = store, params, budget
        self.columns: tuple[list[object], ...] = tuple([] for _ in COMBINATION_SCHEMA.names)

    def add(
        self, query_id: str, combo_id: int, rrf: float, rank: int | None, items: tuple[str, ...]
    ) -> None:
        query_ids, combo_ids, rrfs, ranks, originals, members = self.columns
        query_ids.append(query_id)
        combo_ids.append(combo_id)
        rrfs.append(rrf)
        ranks.append(rank)
        originals.append(combo_id == 0)
        members.append(items)
        if len(query_ids) >= WRITE_BATCH:
            self.flush()

    def flush(self) -> None:
        """Stage the batch, judge it by the rules, drop what repeats a kept tool set, cut it at
        the budget, count its rejections and add the rest to the group (the rules read the
        registered edge_fit)."""
        if not self.columns[0]:
            return
        table = pa.Table.from_arrays(
            [pa.array(c, t) for c, t in zip(self.columns, COMBINATION_SCHEMA.types, strict=True)],
            schema=COMBINATION_SCHEMA,
        )
        self.columns = tuple([] for _ in COMBINATION_SCHEMA.names)
        store = self.store
        with store.registered("stage_rows", table):
            store.execute("stages/4_assemble/09_insert_combinations.sql", self.params)
            store.execute("stages/4_assemble/10_insert_combination_items.sql", self.params)
        store.execute("stages/4_assemble/11_platform_rule.sql", self.params)
        store.execute("stages/4_assemble/12_edge_fit_rule.sql")
        store.execute_script("stages/4_assemble/22_mark_repeated.sql")
        store.execute("stages/4_assemble/13_audit_cap.sql", {"budget": self.budget})
        store.execute("stages/4_assemble/14_drop_cut_items.sql")
        store.execute("stages/4_assemble/20_keep_reasons.sql", {"keep": REASONS_KEPT})
        store.execute_script("stages/4_assemble/15_keep_round.sql")


def run(
    ctx: StageContext,
    audit_cap: int | None = AUDIT_CAP,
    mode: str = PLATFORM_RULE,
    safety_limit: int = AUDIT_SAFETY_LIMIT,
) -> StageCounts:
    if audit_cap is not None and audit_cap < 0:
        raise ValueError("the audit cap must be >= 0")
    budget = safety_limit if audit_cap is None else audit_cap
    judge = "safety_limit" if audit_cap is None else "audit_cap"
    counts = StageCounts("assemble")
    store = ctx.store
    # the factors of every ready query (a few rows per slot), read once; the scratch table's
    # create and drop in one transaction: apart, each was a commit and its count's (4 fsyncs)
    with store.transaction():
        store.execute("stages/4_assemble/01_cartesian.sql", ctx.params())
        products = read_products(store.arrow("stages/4_assemble/02_rrf_rank.sql", {"rrf_k": RRF_K}))
        store.execute_script("stages/4_assemble/03_drop_products.sql")
    counts.tasks = counts.ok = len(products)
    counts.notes["combinations"] = sum(p.size for p in products)
    ctx.progress.start(f"assemble {ctx.benchmark}", len(products), unit="queries")
    try:
        for chunk in chunks(products, budget):
            part = dataclasses.replace(ctx, query_ids=[p.query_id for p in chunk])
            assemble_chunk(part, chunk, budget, mode, judge)
            ctx.progress.advance(len(chunk))
    finally:
        ctx.progress.finish()
    # The originals are valid by definition; the stage row names them so, and leaves "valid" to
    # the outcome and `stats` (every valid combination once the audit has run): a "valid" here,
    # counted before the audit, read as a third number for one word.
    counts.notes["originals"] = sum(p.original is not None for p in products)
    for row in store.rows("stages/4_assemble/18_combination_counts.sql", ctx.params()):
        if row["status"] != "valid":
            counts.notes[row["status"]] = int(row["combinations"])
    limited = store.rows("stages/4_assemble/19_safety_limit_hits.sql", ctx.params())
    if limited:
        counts.notes["queries_at_safety_limit"] = len(limited)
    return counts


def chunks(products: list[Product], budget: int) -> Iterator[list[Product]]:
    """Consecutive groups of queries that store at most about CHUNK combinations between them
    (what each can store: its product, at most the budget and its original; the rule's
    rejections are counted, not stored, and can leave it fewer)."""
    chunk: list[Product] = []
    rows = 0
    for p in products:
        chunk.append(p)
        rows += min(p.size, budget + 1)
        if rows >= CHUNK:
            yield chunk
            chunk, rows = [], 0
    if chunk:
        yield chunk


def assemble_chunk(
    ctx: StageContext, products: list[Product], budget: int, mode: str, judge: str
) -> None:
    """Assemble ``products`` (the queries of ``ctx``) in one transaction: an interruption leaves
    them unassembled, and the next run assembles them whole."""
    store = ctx.store
    with store.transaction():
        # the queries 04, 05 and 07 read
        store.execute("stages/4_assemble/01_cartesian.sql", ctx.params())
        originals = queries.assembly_originals(store, ctx.benchmark, ctx.expansion)
        edges = queries.assembly_edges(store, ctx.benchmark)
        deps = platform_rule.dependency_rows(originals, mode, edges)
        write_rows(store, "stages/4_assemble/06_insert_dependency.sql", deps, ctx.base())
        fit = platform_rule.edge_fit(queries.edge_members(store, ctx.benchmark, ctx.expansion))
        store.execute_script("stages/4_assemble/08_assembly_tables.sql")
        with store.registered("edge_fit", pa.Table.from_pylist(fit, schema=EDGE_FIT_SCHEMA)):
            enumerate_within(ctx, products, budget)
            add_originals(ctx, products, budget)
            store.execute("stages/4_assemble/17_dependency_check.sql")
        sizes = [
            expansions.ProductCount(
                query_id=p.query_id,
                # HUGEINT holds any realistic product; beyond it the size is left unknown
                product=str(p.size) if p.size < 2**127 else None,
                budget=budget,
                judge=judge,
            )
            for p in products
        ]
        expansions.count_products(store, ctx.benchmark, ctx.expansion, sizes)
        expansions.store_assembled(store)
        store.execute("stages/4_assemble/21_store_reasons.sql", ctx.base())
        store.execute_script("stages/4_assemble/03_drop_products.sql")


def read_products(factors: pa.Table) -> list[Product]:
    """Products from 02's rows (query_id, slot, item_id, is_reference, term), in 02's order: by
    query and slot, best term first."""
    products = []
    rows = zip(*(factors.column(c).to_pylist() for c in factors.column_names), strict=True)
    by_query = itertools.groupby(rows, key=lambda r: r[0])
    for query_id, in_query in by_query:
        slots, refs = [], []
        for _, in_slot in itertools.groupby(in_query, key=lambda r: r[1]):
            members = list(in_slot)
            slots.append([(term, item) for _, _, item, _, term in members])
            refs.append(
                next((item for _, _, item, is_reference, _ in members if is_reference), None)
            )
        original = None if None in refs else tuple(str(r) for r in refs)
        products.append(Product(query_id, slots, original))
    return products


def enumerate_within(ctx: StageContext, products: list[Product], budget: int) -> None:
    """Stage each product best first until it has ``budget`` pending combinations or is spent."""
    store = ctx.store
    live = [p for p in products if budget > 0]
    for p in live:
        p.want = budget
    while live:
        batch = Batch(store, ctx.base(), budget)
        for p in live:
            p.take(batch)
            p.release()
        batch.flush()
        # 16 counts the whole group; the queries done in earlier rounds are read and ignored
        pending = {
            r["query_id"]: r["pending"]
            for r in store.rows("stages/4_assemble/16_pending_counts.sql")
        }
        more = []
        for p in live:
            found = pending.get(p.query_id, 0)
            if found < budget and not p.spent:
                p.next_round(budget - found, found)
                more.append(p)
        live = more


def add_originals(ctx: StageContext, products: list[Product], budget: int) -> None:
    """Store the originals the enumeration stopped above, ranked by counting what beats them."""
    batch = Batch(ctx.store, ctx.base(), budget)
    for p in products:
        if p.original is None or p.original_rank is not None:
            continue
        members = zip(p.slots, p.original, strict=True)
        terms = [next(t for t, item in slot if item == ref) for slot, ref in members]
        before = kbest.count_before(p.slots, p.original, limit=MAX_RANK - 1)
        rank = None if before is None else before + 1
        batch.add(p.query_id, 0, kbest.score(terms), rank, p.original)
    batch.flush()
