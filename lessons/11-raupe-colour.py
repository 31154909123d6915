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
# # Räuber Raupe 2: Colour! 🎨
#
# The game can also be played by **Colour**. Then the next caterpillar must
# have **the same colour as the leaf** on top of the pile; its shape does not
# matter.
#
# There are three colours: **green**, **red** and **yellow**. So that nobody
# has to tell red from green by colour alone, each colour also has a pattern:
# **green has stripes**, **red has dots**, **yellow is plain** (and much
# lighter), and the card's words name the colour too.
#
# Watch the banner at the top: it always says whether the game is played by
# **Shape** or by **Colour**.
#
# **Your turn:** press **Start**, and put down caterpillars whose colour
# matches the leaf on top. Remember to **flip** a card when its other side
# fits.

# %% tags=["parameters"]
# The seed: every learner who uses the same seed gets the same cards.
SEED = 11

# %%
from caterpillar_learn.ui.raupe import RaupeWidget

table = RaupeWidget("11-raupe-colour", seed=SEED)
table

# %% [markdown]
# ## Try this
#
# * A striped (green) leaf on top: which of your caterpillars are striped?
# * Play a whole game by colour and try to finish first.
