"""Documentation lengths per benchmark and category (sql/reports/60-61)."""

from __future__ import annotations

from toolex.reports.inputs import ReportContext, Table


def doc_length_tables(ctx: ReportContext) -> tuple[Table, list[dict[str, object]]]:
    """(the distribution summary, the per-tool lengths the histogram is drawn from)."""
    summary = ctx.rows("61_doc_length_summary.sql", benchmarks=ctx.benchmarks)
    lengths = ctx.rows("60_doc_lengths.sql", benchmarks=ctx.benchmarks)
    table = Table(
        "doc_lengths",
        "Documentation length (words of the rendered text)",
        summary,
        note=(
            "Words of items.text, the rendering every retriever and judge sees; 'all' pools the "
            "benchmark. share_over_256/512: tools longer than common embedder input limits."
        ),
    )
    return table, lengths
