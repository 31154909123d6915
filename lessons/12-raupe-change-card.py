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
# # Räuber Raupe 3: the change card ⇄
#
# Some caterpillars sit under a **blue sky** with clouds, marked **⇄ change**.
# Whoever puts such a card on the pile **changes the game**: from Shape to
# Colour, or from Colour to Shape.
#
# The player of a change card must **announce** the new way to play. Before
# you click the change card, press **Colour!** (key **c**) if the game
# becomes Colour, or **Shape!** (key **s**) if it becomes Shape. A change
# card played without the right announcement is a mistake, and a bot may
# call it.
#
# A change card still has to fit the leaf below like any caterpillar.
#
# **When is it clever?** Play your change card when, after the change, more
# of your cards would fit. The hint under the buttons tells you when that is
# the case.

# %% tags=["parameters"]
# The seed: every learner who uses the same seed gets the same cards.
SEED = 12

# %%
from caterpillar_learn.ui.raupe import RaupeWidget

table = RaupeWidget("12-raupe-change-card", seed=SEED)
table

# %% [markdown]
# ## Try this
#
# * Find your change card (blue sky). Wait until it fits the leaf on top.
# * Press the announcement first (**Shape!** or **Colour!**, it stays pressed
#   ✔), then click the change card. The banner changes.
# * Watch the bots: do they always announce the change?
