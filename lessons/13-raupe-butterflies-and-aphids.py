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
# # Räuber Raupe 4: butterflies and aphids 🦋
#
# **The butterfly** is a joker: it may go on **any** caterpillar card. Right
# after it you put down **another card of your own**, and that card may be
# any card, either side up. When you play the butterfly you may also change
# the game: press **Shape!** or **Colour!** first if you want to, or nothing
# to keep the game as it is.
#
# Keep your butterfly for a **dead end**: a moment when none of your cards
# fits.
#
# **The aphid** is a little green bug in a white circle on some leaves. If
# the card on top of the pile shows an aphid, the next player must shout
# **Aphid!** while playing. Press **Aphid!** (key **a**) before you click
# your card. Forgetting it is a mistake that others may call.

# %% tags=["parameters"]
# The seed: every learner who uses the same seed gets the same cards.
SEED = 13

# %%
from caterpillar_learn.ui.raupe import RaupeWidget

table = RaupeWidget("13-raupe-butterflies-and-aphids", seed=SEED)
table

# %% [markdown]
# ## Try this
#
# * When an aphid shows on the pile, press **Aphid!** and then play a card.
# * Use your butterfly only when nothing else fits; then put any card on it.
