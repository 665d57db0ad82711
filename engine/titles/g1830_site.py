"""1830 as 18xx.games plays it: the rules profile ``"18xx.games"`` for imported games.

Where NOTES.md lists a choice between the Avalon Hill reading and the site's, this profile takes the site's
(numbered S1-… here and in docs/rules-1830.md), and it waits for the decisions the site asks for (format spec
7.1); everything else is the rulebook profile (``Rules1830``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .g1830 import Rules1830
from .site_steps import CompanyStep

if TYPE_CHECKING:
    pass

DEVIATIONS = (
    ("S1", "In an auction among a private's bidders the lowest bidder acts: he raises above the highest bid by at "
           "least $5 or drops out (his money is freed); the last one left buys at his bid (NOTES 1.3)."),
    ("S2", "The bank breaks only when a payment would take it below $0."),
    ("S3", "A player's value counts the face value of the privates he holds (the site's player value)."),
    ("Steps", "After the train step, a corporation that can afford a player's private (phases 3 and 4) is asked "
              "whether to buy one: a pass declines."),
)


class Rules1830Site(CompanyStep, Rules1830):
    profile = "18xx.games"
    or_steps = (*Rules1830.or_steps, "company")
    lowest_bidder_acts = True  # S1
    bank_breaks_below = 0  # S2
    privates_scored = True  # S3


__all__ = ["Rules1830Site", "DEVIATIONS"]
