# %% [markdown]
# # Score a retriever defined in Python, old vs new, on ToolRet
#
# A notebook-shaped script (percent format: `# %%` cells; Jupyter, VS Code and `jupytext` open
# it as a notebook). It defines a retriever in Python (BM25 from `bm25s`), scores its run old
# (ToolRet's one annotated tool combination) vs new (every functionally equivalent combination
# toolex finds), per category, and plots the gains.
#
# Run it from the repository: `python examples/score_a_retriever.py`. Settings come from the
# environment:
#
# - `TOOLEX_DATA`: the folder of ToolRet tasks (default `../shared/data/toolret`);
# - `TOOLEX_TASKS`: the tasks, comma-separated (default: all four shared tasks; the test
#   takes `apibank,toolink`, one web and one code task, to keep its expansion short);
# - `TOOLEX_PLOT`: where the figure goes (default `per_category_gains.png`; matplotlib is
#   optional: without it the table alone is printed).

# %%
from __future__ import annotations

import os
import tempfile
from pathlib import Path

import bm25s
import numpy as np
import pandas as pd

import toolex

# A notebook has no __file__: it runs in its own folder, examples/.
HERE = Path(globals().get("__file__", "score_a_retriever.py")).resolve().parent
DATA = Path(os.environ.get("TOOLEX_DATA", HERE.parents[1] / "shared" / "data" / "toolret"))
TASKS = os.environ.get("TOOLEX_TASKS", "apibank,apigen,gorilla-huggingface,toolink").split(",")
PLOT = Path(os.environ.get("TOOLEX_PLOT", "per_category_gains.png"))
DEPTH = 100  # results kept per query, as `toolex retrieve` keeps by default

# %% [markdown]
# ## Load the tasks into a fresh store

# %%
workdir = Path(tempfile.mkdtemp(prefix="toolex-example-"))
store = toolex.open(workdir / "toolex.duckdb")
loaded = toolex.load_toolret(store, DATA, tasks=TASKS)
print(f"loaded {loaded.queries} queries and {loaded.items} tools of {', '.join(TASKS)}")

# %% [markdown]
# ## A retriever in Python: BM25 over the tools' documentation
#
# Any ranking works: all toolex needs is a score per (query, tool). Here every query searches
# the pooled library of the loaded tasks, as ToolRet scores retrievers.

# %%
tools = toolex.sql(store, "SELECT item_id, text FROM items ORDER BY item_id").to_pandas()
queries = toolex.sql(store, "SELECT query_id, text FROM queries ORDER BY query_id").to_pandas()

index = bm25s.BM25()
index.index(
    bm25s.tokenize(tools["text"].tolist(), stopwords="en", show_progress=False), show_progress=False
)
hits, scores = index.retrieve(
    bm25s.tokenize(queries["text"].tolist(), stopwords="en", show_progress=False),
    k=min(DEPTH, len(tools)),
    show_progress=False,
)
run = pd.DataFrame(
    {
        "query_id": np.repeat(queries["query_id"].to_numpy(), hits.shape[1]),
        "item_id": tools["item_id"].to_numpy()[hits.ravel()],
        "score": scores.ravel(),
    }
)
run = run[run["score"] > 0]  # BM25 gives 0 to a tool sharing no word with the query
imported = toolex.import_run(store, run, run="bm25s", benchmark="toolret")
print(f"run bm25s: {imported.results} results for {imported.queries} queries")

# %% [markdown]
# ## Expand the labels with the offline defaults
#
# Decompose each query, retrieve candidates for every sub-query, verify them with the offline
# heuristic judge, assemble and audit the combinations. No key, no network.


# %%
def show(label: str, done: int, total: int) -> None:
    if done == total:
        print(f"  {label}: {total} done")


report = toolex.expand(store, "toolret", progress=show)
print(pd.DataFrame(report.rows())[["stage", "tasks", "ok", "failed"]].to_string(index=False))

# %% [markdown]
# ## Old vs new, per category

# %%
scores_df = toolex.evaluate(store, "bm25s", ["nDCG@10", "R@10", "Comp@10"])
table = scores_df.pivot_table(index="group", columns="metric", values=["old", "new", "gain"])
print(table.round(4).to_string())

# %% [markdown]
# ## Plot the gains (matplotlib is optional)

# %%
try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    plt = None
    print("matplotlib is not installed: the table above is the result")

if plt is not None:
    gains = scores_df.pivot_table(index="group", columns="metric", values="gain")
    ax = gains.plot.bar(figsize=(7, 4), rot=0)
    ax.set_ylabel("new − old")
    ax.set_title(f"BM25 on ToolRet ({', '.join(TASKS)}): new − old", fontsize=10)
    plt.tight_layout()
    plt.savefig(PLOT, dpi=120)
    plt.close()
    print(f"wrote {PLOT}")

# %%
store.close()
