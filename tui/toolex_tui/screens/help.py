"""The help screen: every key binding, by screen (also the reference in the docs)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown

HELP = """\
# toolex TUI — keys

**Everywhere**: `?` / `F1` this help · `q` / `ctrl+q` quit · `escape` back · mouse: click rows,
click a column header to sort by it (again: reverse).

**Query list**
| key | action |
|---|---|
| `/` | search query id or text (typing filters at once; `enter` returns to the table) |
| `f` | filters: task, category, # GT tools, # valid combinations, run scores, run filters |
| `c` | clear all filters |
| `s` / `S` | next sort column / reverse the order |
| `]` / `[` | next / previous page (100 rows per page, paged in SQL) |
| `enter` | open the query |

**Query detail** — `tab` moves between tables; `enter` on a GT or candidate row opens the tool.
Accepted candidates and valid combinations are green; REF marks the reference tool.
Run table: Recall@10 on the original combination (old) and the best valid one (new), the
rank of each GT tool by slot (`-` = not retrieved), and the accepted equivalents' ranks.

**Tool detail** — `enter` on a query opens it.

**Review** (`toolex tui --review SAMPLE --role reviewer1 --reviewer NAME`)
| key | action |
|---|---|
| `v` / `i` | label valid / invalid |
| `1`–`4` | failure bucket: 1 decomposition ambiguity, 2 near-synonym but not substitutable, \
3 incomplete coverage of the query, 4 cross-platform dependency mismatch |
| `e` | edit the note |
| `ctrl+s` | save the label (and move on) |
| `n` / `p` | next / previous item |
"""


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,q,question_mark,f1", "app.pop_screen", "Close")]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-box"):
            yield Markdown(HELP)
