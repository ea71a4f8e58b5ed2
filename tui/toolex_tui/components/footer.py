"""The key footer of every screen: drawn once its keys are known, redrawn only when they change."""

from __future__ import annotations

from textual.screen import Screen
from textual.widgets import Footer


class KeyFooter(Footer):
    """Textual's Footer rebuilds all its key widgets whenever the screen's bindings may have
    changed (every focus move; five or six times while a page opens) although the keys shown are
    mostly the same, and each rebuild restyles and lays out the page again; it also waits for the
    page's next refresh to do so, which on the query page comes only after its data. This one
    rebuilds at once, and only when the keys differ (issue 15: the query page's first open)."""

    _shown: tuple[object, ...] | None = None

    def _keys(self) -> tuple[object, ...]:
        shown = tuple(
            (binding.key, binding.action, binding.description, enabled, tooltip, binding.group)
            for _, binding, enabled, tooltip in self.screen.active_bindings.values()
            if binding.show
        )
        return (self.compact, self.show_command_palette, shown)

    def bindings_changed(self, screen: Screen[object]) -> None:
        super().bindings_changed(screen)  # marks the bindings known; rebuilds after a refresh
        if self.is_attached and screen is self.screen and screen.app.app_focus:
            self.call_next(self.recompose)  # now, so the later rebuild finds nothing to do

    async def recompose(self) -> None:
        # bindings_changed schedules this for after the current message; by then a key already
        # queued may have closed the screen (`/` on a detail screen pops two at once), and a
        # footer no longer on a screen has no keys to show (it raised NoScreen, a CI failure)
        if not self.is_attached:
            return
        keys = self._keys()
        if keys == self._shown:
            return
        self._shown = keys
        await super().recompose()
