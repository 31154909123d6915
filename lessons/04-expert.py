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
# # Lesson 4: Expert 🦋
#
# You roll the 3 dice **and the action die**. Its six faces:
#
# - **A**, **B** or **C**: the value in that bonus box becomes an extra die
#   this round (if the bonus box is empty, nothing happens).
# - **2x**: choose one of the dice and double it.
# - **10**: an extra die worth 10.
# - **Butterfly**: you *may* write the total of your dice into **any** empty box, whatever
#   its label.
#
# The bonus boxes work as at the Advanced level. You may not put a die into a
# bonus box and use that same bonus box's value in the same round.
#
# Look at the action die in the tray before you choose: the menu of each box
# says how the dice make each score.

# %% [markdown]
# **How to use the board below**
#
# - Press **Roll** (or the **r** key) to roll the dice.
# - Boxes you may fill have a **dashed orange border and a ★**. Click one (or
#   move to it with **Tab** and the arrow keys and press **Enter**).
# - Click a box *without* a star and the board tells you why it cannot take a
#   score.
# - When one box can be filled in several ways, a small menu lists them:
#   choose one.
# - **Hint** shows the helper's advice: how many points each move is worth on
#   average at the end of the game.
# - Some steps ask a question first ("Tap every box these dice can fill",
#   "Which caterpillar will fly?"): answer, press **Check**, and read why.
#   A wrong answer can be changed and checked again. **Save my answers**
#   keeps a record of them.
# - After a move, **Try another move** shows what another choice that round
#   would have given, side by side with yours.
# - Follow the steps with **Next**. After all 12 rounds you see which
#   caterpillar flies and your final score. **New game** starts another game.

# %% tags=["parameters"]
# The seed: every learner who uses the same seed gets the same dice.
SEED = 4

# %%
from caterpillar_learn.ui.caterpillars import CaterpillarsLesson

lesson = CaterpillarsLesson("04-expert", seed=SEED)
lesson

# %% [markdown]
# ## Scoring: the median flies
#
# After 12 rounds every box is full. Add up each caterpillar. The caterpillar
# with the **highest** total and the one with the **lowest** total are
# struck out. The one in the middle (the *median*) flies away as a
# butterfly, and its total is your score. At Advanced and Expert, add the bonus box of the
# caterpillar that flies (A for Alex, B for Bobby, C for Charlie).

# %% [markdown]
# ## For the teacher
#
# The labels were filled by the setup rolls (lesson 0 shows how). The guided
# game's dice are chosen so that this level's rules come up (see the lesson
# guide in docs/TEACHERS.md); the seed decides the dice of later games. Below are
# the dice of this lesson for the seed above (the same for the whole class),
# and the final score of a sample game that always takes the first
# highlighted box and the first choice of a box's menu.

# %%
# NBVAL_CHECK_OUTPUT
from caterpillar_learn.lessons.teacher import class_dice

print(class_dice("04-expert", seed=SEED))
