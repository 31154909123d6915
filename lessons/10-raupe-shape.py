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
# # Räuber Raupe 1: Shape! 🐛
#
# Every card shows a **caterpillar sitting on a leaf**. Caterpillars and
# leaves come in three shapes:
#
# * **jagged** (the rule book also calls it *square*): a zigzag caterpillar, a
#   leaf with sharp teeth;
# * **straight**: a caterpillar stretched out in a straight row, a leaf with
#   straight edges;
# * **round**: a curled-up caterpillar of round segments, a round leaf.
#
# When the game is played by **Shape**, look at the **leaf** on top of the
# pile: the next caterpillar must have **the same shape as that leaf**. Its
# colour does not matter. The words at the bottom of each card say the same
# as the pictures: "round red / on jagged green" is a round red caterpillar on
# a jagged green leaf.
#
# Every card has **two sides**, and you may play either one. Press **flip**
# under a card (or the **f** key) to turn it over.
#
# **Your turn:** press **Start**. The bot plays too, so be quick! Click a
# card to put it on the pile; cards that fit carry a dashed border and a ✓,
# a ↻ means the other side fits. If a bot sees a card that does not fit, it
# calls **Mistake!** and you take 3 of its cards.

# %% tags=["parameters"]
# The seed: every learner who uses the same seed gets the same cards.
SEED = 10

# %%
from caterpillar_learn.ui.raupe import RaupeWidget

table = RaupeWidget("10-raupe-shape", seed=SEED)
table

# %% [markdown]
# ## Try this
#
# * Play three cards that fit, one after the other.
# * Find a card whose *other* side fits (↻) and flip it before you play it.
# * Press **New game** to play again with new cards.
#
# With the keyboard: **Tab** moves to a card, **Enter** plays it and **f**
# flips it; the arrow keys move along your hand.
