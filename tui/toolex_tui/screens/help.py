"""The help screen: every key binding, by screen (also the reference in the docs)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown

HELP = """\
# toolex TUI — keys

**Everywhere**: `?` / `F1` this help · `q` / `ctrl+q` quit · `escape` back · in every table, as
in less: `j` / `k` (or arrows) move, `g` / `G` first / last row, `ctrl+d` / `ctrl+u` half a page ·
mouse: click rows, click a column header to sort by it (again: reverse).

**Query list**
| key | action |
|---|---|
| `/` | search query id or text (typing filters at once; `enter` returns to the table) |
| `f` | filters: task, category, # GT tools, # valid combinations, run scores, run filters |
| `c` | clear all filters |
| `s` / `S` | next sort column / reverse the order |
| `]` / `[` | next / previous page (100 rows per page, paged in SQL) |
| `enter` | open the query |

**Query detail** — `tab` / `shift+tab` move between the tables (and bring the one reached into
view); `/` goes back to the list's search; `enter` on a GT or candidate row opens the tool.
Accepted candidates and valid combinations are green; REF marks the reference tool.
Run table: Recall@10 on the original combination (old) and the best valid one (new), the
rank of each GT tool by slot (`-` = not retrieved), and the accepted equivalents' ranks.

**Tool detail** — `tab` moves between its tables; `enter` on a query opens it, on an equivalent
opens that tool; `/` goes back to the list's search.

**Review** (`toolex tui --review SAMPLE --role reviewer1 --reviewer NAME`) — the request and
the sub-query (verdicts) or checklist (combinations) on top, both documentations side by side
below (`tab` moves between the panes; arrows, `j`/`k`, `g`/`G` scroll the focused one).
| key | action |
|---|---|
| `v` / `i` | combination: label valid / invalid |
| `y` / `n` | verdict: label yes (an equivalent for the sub-query) / no |
| `1`–`4` | combination bucket: 1 decomposition ambiguity, 2 near-synonym but not substitutable, \
3 incomplete coverage of the query, 4 cross-platform dependency mismatch |
| `1`–`6` | verdict bucket: 1 different operation, 2 different entity, 3 missing input, \
4 partial coverage, 5 named source, 6 thin documentation |
| `e` | edit the note (stored as you type; `enter` moves on, `escape` leaves the box) |
| `ctrl+s` | next item (labels are stored the moment they are given: there is no save step) |
| `n` / `p` | combination: next / previous item |
| `]` / `[` | verdict: next / previous item |
"""


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,q,question_mark,f1", "app.pop_screen", "Close")]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-box"):
            yield Markdown(HELP)
