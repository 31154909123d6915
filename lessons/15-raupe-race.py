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
# # Räuber Raupe 6: the race 🏁
#
# Now everything together, with a full deck and three bots. Be the first to
# get rid of all your cards!
#
# * Match the **leaf** on top: by **shape** or by **colour**, as the banner says.
# * **Flip** a card (f) when its other side fits.
# * Announce a **change card** (Shape! / Colour!), shout **Aphid!** on an aphid.
# * Keep the **butterfly** for a dead end.
# * Press **Mistake!** (m) when a bot gets it wrong: it takes 3 of your cards.
#
# There are no hints this time. Set the **bot level** (beginner, advanced,
# expert) and the **bot speed** with the controls at the top: ×1 is normal,
# ×0.5 half as fast, ×2 twice as fast. Start slow and speed up!

# %% tags=["parameters"]
# The seed: every learner who uses the same seed gets the same cards.
SEED = 15

# %%
from caterpillar_learn.ui.raupe import RaupeWidget

table = RaupeWidget("15-raupe-race", seed=SEED)
table

# %% [markdown]
# ## For the teacher
#
# Every learner with the same seed gets the same cards. The **game record**
# at the bottom of the table holds the seed and every event with its time,
# enough to replay the game with `caterpillar_learn.raupe.replay`.
