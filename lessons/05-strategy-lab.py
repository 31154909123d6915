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
# games by hand, the computer plays them for us with four **strategies**:
#
# - **random**: picks any legal move.
# - **greedy**: always writes the biggest score it can, right now.
# - **median**: puts the points where they raise the caterpillar that is
#   expected to end in the middle.
# - **hint**: follows the hint helper, which plays best.
#
# Only the caterpillar in the **middle** flies. So the question is not only
# *how many* points a strategy writes, but *where* they go. For every game the
# computer sorts the three caterpillars into the lowest, the middle and the
# highest one; the table shows the average total of each.

# %% tags=["parameters"]
# The seed makes the simulated dice the same for the whole class.
SEED = 1
GAMES = 200
LEVEL = "intermediate"

# %%
from caterpillar_learn.ui.caterpillars.lab import run_lab

report = run_lab(LEVEL, games=GAMES, seed=SEED)
report

# %% [markdown]
# Each row of bars is one strategy: a bar's position is a final score, its
# height how many games ended with that score. Bars further to the right are
# better. The sentences under the table are worked out from this run's numbers.
#
# ## What the numbers show
#
# **Best play lets one caterpillar go hungry.** With the hint strategy the
# lowest caterpillar ends far below the other two, and those two are fed up
# together: the middle one ends close to the highest. Points for the hungry
# caterpillar would not count, so best play spends as little as it can there
# and feeds the two that race for the middle.
#
# **Greedy play ends the most level.** Taking the most points every time
# makes all three caterpillars grow alike: the lowest and the highest end
# closest together. But the middle one then stays lower than with best play.
#
# ## Try it yourself
#
# Choose a level, tick the strategies, set the number of games and press
# **Run**. The same choices always play the same games, so the whole class
# sees the same numbers. Does the hungry caterpillar show up at every level?

# %%
from caterpillar_learn.ui.lab import LabWidget

LabWidget(LEVEL, games=GAMES, seed=SEED)

# %% [markdown]
# **For the teacher:** the mean final scores of the run above.

# %%
print(report.summary())
