# ---
# jupyter:
#   jupytext:
#     formats: ipynb,py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.19.6
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Lesson 5: Strategy lab 🔬
#
# Which way of playing gives the best scores? Instead of playing hundreds of
# games by hand, the computer plays them for us with different **strategies**
# and we compare the final scores.
#
# - **random**: picks any legal move.
# - **greedy**: always writes the biggest score it can, right now.
# - **median**: tries to keep the three caterpillars close together, so that
#   the one in the middle ends up high.
# - **hint**: follows the hint helper.
#
# ## Why greedy play loses
#
# Only the caterpillar with the **median** total flies. A greedy player piles
# big scores wherever they fit, so one caterpillar often gets very fat and
# another stays thin. The fat one is struck out as the highest, the thin one
# as the lowest... and the middle one is often not very big. Big scores only
# count if they end up in the *middle* caterpillar!
#
# Each row of bars below is one strategy. A bar's position is a final score,
# its height how many games ended with that score. Bars further to the right
# are better.

# %% tags=["parameters"]
# The seed makes the simulated dice the same for the whole class.
SEED = 1
GAMES = 200
LEVEL = "beginner"

# %%
from caterpillar_learn.ui.caterpillars.lab import run_lab

report = run_lab(LEVEL, ("random", "greedy", "median"), games=GAMES, seed=SEED)
report

# %% [markdown]
# ## Try it yourself
#
# Change `LEVEL` to `"intermediate"`, `"advanced"` or `"expert"` in the cell
# above, or add `"hint"` to the strategies, and run the cells again. Does the
# median strategy still beat the greedy one? By how much?

# %%
print(report.summary())
