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
# # Räuber Raupe 5: spot the mistake 🔍
#
# This time **you are the referee**. Three bots play, and they are careless:
# now and then one of them
#
# * puts down a caterpillar that does **not match** the leaf (by the shape or
#   colour shown in the banner),
# * forgets to shout **Aphid!** when the card below had an aphid, or
# * plays a **change card** without announcing the new way to play.
#
# Every card the bots play is written next to the pile, with what they
# shouted. When you see a mistake, press **Mistake!** (or the **m** key)
# **before the next card covers it**. If you are right, the bot takes 3
# cards. If the card was fine, it is a false alarm, and you read why it was
# fine. Mistakes that get covered before you call count as missed.
#
# Your score is shown under the messages.

# %% tags=["parameters"]
# The seed: every learner who uses the same seed gets the same cards.
SEED = 14

# %%
from caterpillar_learn.ui.raupe import RaupeWidget

table = RaupeWidget("14-raupe-spot-the-mistake", seed=SEED)
table

# %% [markdown]
# ## Try this
#
# * Spot three mistakes in one game.
# * Which mistake is hardest to see? Often it is the missing "Aphid!".
