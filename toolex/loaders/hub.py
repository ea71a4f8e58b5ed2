"""ToolRet straight from the Hugging Face Hub, by task name.

Downloads (with ``huggingface_hub.hf_hub_download``, no ``datasets``) the Parquet shard of each
task's config of ``mangopy/ToolRet-Queries`` and of its category's config of
``mangopy/ToolRet-Tools`` into ``<cache>/ToolRet-Queries/<task>/`` and
``<cache>/ToolRet-Tools/<category>/`` — the Hugging Face layout ``toolex load toolret`` reads —
then loads them with the same reader. Revisions are pinned by default (the commits MTEB's
ToolRetrieval task pins) so a load is reproducible; ``revision="main"`` takes the latest.

Offline (no route to the Hub, or ``HF_HUB_OFFLINE=1``) it fails within seconds with a
``ModelUnavailableError`` naming the offline alternative; files already in the cache are used
without any network call when ``HF_HUB_OFFLINE`` is set.
"""

from __future__ import annotations

import os
from pathlib import Path

from toolex.errors import ModelUnavailableError, ToolexError
from toolex.loaders.result import LoadResult
from toolex.loaders.toolret import TASK_CATEGORY, read_toolret
from toolex.loaders.write import write_benchmark
from toolex.store import Store

QUERIES_REPO = "mangopy/ToolRet-Queries"
TOOLS_REPO = "mangopy/ToolRet-Tools"
PINNED = {
    QUERIES_REPO: "b8c76ad3349ff17497b6bdb28bb5b8f61a0f6445",
    TOOLS_REPO: "e06c38c75612b6536bd959e08cdd345894aba6a7",
}
SHARD = "{config}/{split}-00000-of-00001.parquet"
TIMEOUT_S = 5.0
OFFLINE_HINT = (
    "load a local copy instead: `toolex load toolret <folder>` (task folders with queries.json "
    "and tools.json, or ToolRet-Queries/ + ToolRet-Tools/ snapshots)"
)


def default_cache() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "toolex" / "toolret"


def hub_offline() -> bool:
    return os.environ.get("HF_HUB_OFFLINE", "").strip().lower() in ("1", "true", "yes", "on")


def _wanted(tasks: list[str]) -> list[tuple[str, str, Path]]:
    """(repo, file in repo, local folder) for every shard the tasks need."""
    unknown = [t for t in tasks if t not in TASK_CATEGORY]
    if unknown:
        raise ToolexError(f"unknown ToolRet task(s) {unknown}; known: {sorted(TASK_CATEGORY)}")
    out = []
    for task in tasks:
        out.append(
            (QUERIES_REPO, SHARD.format(config=task, split="queries"), Path("ToolRet-Queries"))
        )
    for cat in sorted({TASK_CATEGORY[t] for t in tasks}):
        out.append((TOOLS_REPO, SHARD.format(config=cat, split="tools"), Path("ToolRet-Tools")))
    return out


def download_toolret(
    tasks: list[str],
    *,
    cache_dir: str | Path | None = None,
    revision: str | None = None,
    endpoint: str | None = None,
    timeout: float = TIMEOUT_S,
) -> Path:
    """Fetch the tasks' shards into ``cache_dir`` (Hugging Face layout) and return it."""
    root = Path(cache_dir) if cache_dir else default_cache()
    wanted = _wanted(tasks)
    if hub_offline():
        missing = [f for _, f, sub in wanted if not (root / sub / f).is_file()]
        if missing:
            raise ModelUnavailableError(
                f"HF_HUB_OFFLINE is set and {len(missing)} ToolRet file(s) are not cached in "
                f"{root} (e.g. {missing[0]}); {OFFLINE_HINT}"
            )
        return root
    from huggingface_hub import constants, hf_hub_download

    _probe(endpoint or constants.ENDPOINT, timeout)
    for repo, filename, sub in wanted:
        try:
            hf_hub_download(
                repo,
                filename,
                repo_type="dataset",
                revision=revision or PINNED[repo],
                local_dir=root / sub,
                endpoint=endpoint,
                etag_timeout=timeout,
            )
        except Exception as exc:  # network, HTTP and hub errors all mean: not available here
            raise ModelUnavailableError(
                f"cannot download {repo}/{filename} from the Hugging Face Hub "
                f"({type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}); "
                f"{OFFLINE_HINT}"
            ) from exc
    return root


def _probe(endpoint: str, timeout: float) -> None:
    """One short request first: huggingface_hub retries a dead route with backoff for ~25 s,
    and offline we want a clear answer in seconds."""
    import httpx

    try:
        httpx.head(endpoint, timeout=timeout, follow_redirects=False)
    except httpx.HTTPError as exc:
        raise ModelUnavailableError(
            f"the Hugging Face Hub ({endpoint}) is not reachable ({type(exc).__name__}: {exc}); "
            f"{OFFLINE_HINT}"
        ) from exc


def load_toolret_hub(
    store: Store,
    tasks: list[str],
    *,
    name: str = "toolret",
    cache_dir: str | Path | None = None,
    revision: str | None = None,
    endpoint: str | None = None,
    replace: bool = False,
) -> LoadResult:
    """Download the tasks (or reuse the cache) and load them as benchmark ``name``."""
    if not tasks:
        raise ToolexError("name at least one ToolRet task (--task)")
    root = download_toolret(tasks, cache_dir=cache_dir, revision=revision, endpoint=endpoint)
    bench = read_toolret(root, tasks=tasks, name=name)
    bench.format = "hub"
    revs = f"{revision or PINNED[QUERIES_REPO][:12]}+{revision or PINNED[TOOLS_REPO][:12]}"
    bench.source = f"hf://datasets/{QUERIES_REPO}+{TOOLS_REPO}@{revs}"
    return write_benchmark(store, bench, replace=replace)
