"""Question analysis: what a question asks for, and the specific searches that answer it.

A composite question is broken down by its wording, never by recognising the question:

* **sides** of a comparison: two or more periods ("Q3 and Q2", "from Q2 to Q3", "the last
  three months") or two or more named items ("LX-200 vs TS-40"); each side plus the shared
  **subject** ("gross margin") becomes one search ("Q3 2024 gross margin");
* **causes** ("why", "reasons", "what drove"): a search for the reasons of the change;
* **parts** of a multi-part question ("... and who approves ...") get one search each;
* **reviews** ("are there clauses unfavourable to us in the X contract?"): one search per
  aspect a reviewer checks in any agreement (:data:`REVIEW_ASPECTS`, general contract
  practice, not this corpus), each scoped to the reviewed document;
* **references** ("which office runs the plant ..., and what is its address?"): a later
  part that points back ("its", "their") waits for the first part's answer and is
  searched with the name found there;
* **bridges** ("in the quarter when the X contract started"): the event is searched first,
  its date gives the period, and the rest of the question is then asked for that period;
* **calculation**: a comparison of two quantities needs a subtraction (or a relative
  change when the question asks for a percentage);
* **operation**: how the found numbers combine (:data:`OPERATIONS`): difference, sum,
  percent change, percentage-point change, share of a total, average, ratio or per-unit
  value, the largest or the smallest side; the grammar names them, and a question that
  names none is compared by meaning with each operation's description;
* **other systems**: order or shipment status goes to an orders tool, public, market or
  regulator information to a web search.

The words around the ask (greetings, remarks, premises, where to look) are set aside first
(:mod:`.framing`). Misspelt grammar words ("budgetted", "avrage") are corrected first (:func:`.lexicon.correct`).
``print(analyse(question))`` shows the result: what the model understood.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import date

from .currency import Conversion, compared_in, conversion_asked
from .dates import (
    anchor_relative,
    attach_years,
    expand_spans,
    fill_years,
    happened_periods,
    period_range,
    resolve_relative,
    spread_over_years,
    target_years,
    that_period,
)
from .framing import (
    CONCESSION,
    DASHED_STATEMENT,
    FOR_SOMEONE,
    FOR_USE,
    FOR_WHOM,
    LEAD,
    PASSED_ON,
    PREAMBLE,
    PREMISE,
    QUOTED,
    REQUEST,
    SOURCE,
    SOURCE_AFTER,
    STATEMENT,
    buried_ask,
    listed_asks,
    plainly_asked,
    unframed,
    without_remarks,
)
from .lexicon import MONEY_MEASURES, PERCENT_MEASURES, closest, correct, dimension, one_word_per_measure, same_measure
from .text import (
    MONTHS,
    NUMBER,
    RELATIVE_SIDE,
    STOPWORDS,
    TARGET_YEAR,
    WH_WORD,
    Period,
    anchors,
    find_periods,
    normalise_periods,
    number_value,
    period_mentions,
    stem,
    terms,
    unit_of,
    word_set,
)

#: Words that say how to combine facts rather than which facts to find.
CUE_WORDS = word_set("""
compare compared comparison comparing reconcile contrast difference differ different change changed changes changing which more less
higher lower better worse between why reason reasons reasoning rationale main key primary explain explanation drove drive driven driver
drivers cause causes caused behind percent percentage points point relative much how what did does do whether one
most least highest lowest largest smallest biggest fewest record peak average mean share proportion ratio
bigger larger smaller greater fewer longer shorter cheaper
vs versus against than year-over-year yoy quarter-over-quarter qoq month-over-month
""")
#: Words that say how to combine or express numbers, not what is measured ("total", "in millions of dollars").
AGGREGATE_WORDS = word_set("total totals aggregate combined sum altogether overall whole entire millions million billions thousands dollars "
                           "dollar euros terms units figure figures $ % $m m bn usd eur gbp roughly approximately approx circa nearly almost")
#: "What drove the swing?" after a statement: the change the statement describes, not a thing of its own.
MOVE_WORDS = word_set("swing dip slip drop fall rise jump change shift move slide slump spike surge decline increase "
                      "decrease gap turnaround reversal expansion contraction")
INCREASE_WORDS = word_set("increase increased increases rise rose risen grow grew grown growth improve improved up "
                           "higher gain gained jump jumped climb climbed")
DECREASE_WORDS = word_set("decrease decreased decreases drop dropped fall fell fallen decline declined down lower "
                           "shrink shrank slump slumped worsen worsened dip dipped slip slipped sag sagged "
                           "weaken weakened soften softened slide slid slides sliding")

#: Words that say which version of a figure is meant: the plan or the outcome ("budgeted" vs "actual" margin).
VERSION_WORDS = word_set("budget budgeted planned plan forecast forecasted target targeted projected estimated expected "
                         "actual actuals reported")

_COMPARISON = re.compile(r"\b(compar\w*|reconcil\w*|contrast\w*|vs\.?|versus|against|stacks? up|between|differ\w*|chang\w*|from .+ to |than|"
                         r"higher|lower|above|below|grew|growth|increase\w*|decrease\w*|decline\w*|drop\w*|rose|fell|"
                         r"exceed\w*|surpass\w*|outstrip\w*|short of)\b", re.I)  # ("fall short of")
_CAUSE = re.compile(r"\b(why|reasons?|reasoning|rationale|drove|drivers?|driven|caus\w*|explain\w*|due to|led to|factors?|"
                    r"how come)\b|"
                    r"\b(?:what(?:'s| is| was| are| were)|who(?:'s| is| was)|is|was|are|were) behind\b|"  # not "the customer behind"
                    r"\bwhat (?:exactly |really |actually )?(?:dragged|pushed|pulled|held|weighed|hurt|helped|boosted|lifted|"
                    r"made|led)\b|"
                    r"\bhow (?:did|could|was|were|do|does|can)\b.*\b(?:manage to|happen|come to)\b|"
                    r"\b(?:without (?:anyone|anybody|us) noticing|unnoticed)\b|"
                    r"\b(?:holding (?:it|them|this|things) up|held up|what(?:'s| is) keeping)\b", re.I)
#: "which items account for the decline?": what explains a change, not a share of a total.
_CHANGE_WORD = (r"(?:decline|drop|fall|dip|decrease|increase|rise|jump|growth|change|gap|difference|shortfall|improvement|"
                r"deterioration|swing|slowdown)\b")
_ACCOUNTS_FOR_CHANGE = re.compile(rf"\baccount(?:ed|s)? for\s+(?:the|this|that|its)\s+{_CHANGE_WORD}", re.I)
_PERCENT = re.compile(r"\b(percent|percentage|relative|growth rate|by what %)\b(?! points?)|(?<![\d.\s])\s?%(?!\w)|\(%\)", re.I)
_ORDERS = re.compile(r"\b(orders?|ordered|shipments?|shipped|shipping|deliver(?:y|ed|ies)?|arriv(?:e|ed|es|al)|tracking|"
                     r"dispatch(?:ed)?|parcels?|packages?|consignments?|in transit|purchase orders?|eta)\b", re.I)
#: Order words that are not about an order's status: "in order to", delivery *terms* of a contract, bookings.
_NOT_ORDERS = re.compile(r"\border intake\b|\bin order to\b|\border of magnitude\b|\bbook(?:ings?|ed|s)?\b|"
                         r"\b(?:late|on-time|delayed)[- ]deliver\w*|\bdelivery (?:penalt\w*|terms?|clauses?|times?)\b|"
                         r"\b(?:clauses?|penalt\w*|liabilit\w*|terms)\b|"
                         # "units Veltrix reports having shipped": a figure someone published, not an order record
                         r"\b(?:reports?|reported|says?|said|claims?|claimed)\s+(?:having\s+|to have\s+)?shipped\b", re.I)
#: "how does that compare with its internal plan?": the outcome against the plan a sentence gives with it.
_AGAINST_PLAN = re.compile(r"\b(?:compar\w*\s+(?:with|to|against)|beat|beats|missed|miss|exceeded|exceed|fell short of|"
                           r"outperformed|ahead of|behind)\s+(?:its|their|our|the|a)\s+(?:own\s+|internal\s+|original\s+)?"
                           r"(?:plan|target|budget|forecast|goal|guidance)\b|\b(?:versus|vs\.?|against)\s+(?:its|their|our|the)\s+"
                           r"(?:own\s+|internal\s+|original\s+)?(?:plan|target|budget|forecast|goal)\b", re.I)


#: Words only the records use: "orders placed in Q4", "in the order system" (whatever else the clause says).
_RECORDS = re.compile(r"\borders?\s+(?:were\s+|was\s+)?placed\b|\border (?:system|records?|book)\b|"
                      # "late delivery of its September 2024 LX-200 order": one dated order of theirs
                      r"\b(?:its|their)\s+(?:[\w-]+\s+){0,3}?(?:19|20)\d{2}\s+(?:[\w-]+\s+){0,3}?orders?\b|"
                      # "check all my Brightwater shipments", "which deliveries arrived after the promised date"
                      r"\b(?:check|list|show|go through)\s+(?:all\s+)?(?:my|our|their|the)\s+(?:[\w-]+\s+){0,2}?"
                      r"(?:shipments|orders|deliveries)\b|\bwhich\s+(?:ones|shipments|orders|deliveries)\s+(?:arrived|came|"
                      r"were delivered)\b", re.I)


def asks_orders(clauses: list[str]) -> bool:
    """Whether a clause asks about an order or a shipment ("one of our shipments is delayed"), not about delivery
    terms ("the late-delivery penalty in their contract" is a contract question) or bookings, unless it names the
    records themselves ("the value we booked for orders placed in Q4"); a supposed order ("Say a $60,000 order
    arrives late, what would we owe?") is in no records."""
    whole = " ".join(c for c in clauses if c)
    if (_SUPPOSED_ORDER.search(whole) and _SUPPOSING.search(whole) or _IF_LATE.search(whole)) and not _RECORDS.search(whole):
        return False  # ("if we deliver late, what do we owe them?": the terms of any late delivery)
    return any(_ORDERS.search(c) and (not _NOT_ORDERS.search(c) or _RECORDS.search(c)) for c in clauses if c)


#: An order the question makes up, by its value: "a $200,000 delivery", "an order worth €50k".
_SUPPOSED_ORDER = re.compile(r"\b(?:a|an)\s+(?:[$€£]\s?\d[\d,.]*\s*(?:[kmb]n?|million|thousand)?\s+(?:[\w-]+\s+){0,2}?"
                             r"(?:orders?|deliver(?:y|ies)|shipments?|consignments?)|(?:orders?|deliver(?:y|ies)|"
                             r"shipments?|consignments?)\s+(?:worth|of|valued at)\s+[$€£]\s?\d)", re.I)
#: "if we deliver late", "if they ever ship late": a delivery supposed, of no order in particular.
_IF_LATE = re.compile(r"\b(?:if|when(?:ever)?)\s+(?:we|they|you|the\s+supplier)\s+(?:ever\s+)?"
                      r"(?:deliver(?:s|ed)?|ship(?:s|ped)?|are|were)\s+(?:\w+\s+)?late\b", re.I)
#: Words that make a case up: "say", "suppose", "if", "worst case", "would", "hypothetically".
_SUPPOSING = re.compile(r"\b(?:say|suppose|supposing|assume|assuming|imagine|if|hypothetical(?:ly)?|worst[- ]case|"
                        r"would|were to)\b", re.I)


_REVIEW = re.compile(r"\b(unfavou?rable|red flags?|one-sided|disadvantageous|risky|problematic)\b", re.I)
#: An agreement held against a standard: "flagged red or amber", "departs from our standard positions", "non-standard",
#: "against the checklist" (a review only when an agreement is what is held against it).
_AGAINST_STANDARD = re.compile(r"\b(?:flag(?:ged|s)?|amber|non-?standard|depart\w*\s+from|deviat\w*\s+from|standard "
                               r"positions?|(?:against|vs\.?|versus|under|per|by|according\s+to|in\s+line\s+with|break\w*|breach\w*|violat\w*|"
                               r"compl\w*\s+with|conflict\w*\s+with|outside|fall\w*\s+foul\s+of|fails?)\s+"
                               r"(?:the\s+|our\s+|legal['’]?s?\s+)*"
                               r"(?:\w+\s+){0,2}(?:checklist|playbook|standards?))\b", re.I)  # ("contract review checklist")
#: The rating a review asks for: "which clauses should be marked amber", "red flags".
STANDARD_LEVEL = re.compile(r"\b(amber|red|green)\b", re.I)
#: The standard an agreement is held against, by its name: "the contract checklist", "Legal's checklist", "our playbook".
_STANDARD = re.compile(r"\b(?:checklist|playbook|standard position)", re.I)
#: The words that call a document an agreement.
AGREEMENT_WORD = r"(?:contract|agreement|msa|framework|deal|charter|lease|terms and conditions)"
#: The agreement a review is about: "the Sable Rail contract", "Oakridge's framework agreement", "the agreement with
#: Nordby Freight".
_REVIEWED_AGREEMENT = re.compile(
    rf"((?:(?-i:[A-Z])[\w&.-]*(?:['’]s)?\s+){{1,4}}(?:\w+\s+){{0,2}}?{AGREEMENT_WORD}s?(?:\s+{AGREEMENT_WORD})?)\b"
    r"(?!\s+(?:review|register|checklist))|"  # ("Maria's contract review" is no agreement of Maria's)
    rf"\b({AGREEMENT_WORD}s?\s+(?:with|for)\s+(?:(?-i:[A-Z])[\w&.-]*\s*){{1,4}})", re.I)
#: What a reviewer checks in any commercial agreement, one search each.
REVIEW_ASPECTS = ("liability", "renewal", "termination", "penalties", "payment terms")
#: Other words for each aspect, so an aspect the question names in its own words is the one searched.
_ASPECT_WORDS = {"liability": "liability liable indemnity", "renewal": "renewal renew renews auto-renews",
                 "termination": "termination terminate exit cancel", "penalties": "penalty penalties late delivery ld lds",
                 "payment terms": "payment pay pays invoice", "price": "price prices pricing indexation"}
_REVIEW_FILLER = word_set("clause clauses contain contains containing any anything anywhere us there unfavourable unfavorable red flag "
                          "flags one-sided disadvantageous risky problematic")
_AMOUNT = re.compile(r"\bby how (?:much|many)\b|\bhow (?:much|many)(?: \w+)? (?:did|does|was|were|is)\b.*\b(?:go up|go down|"
                     r"rise|fall|increase|decrease|drop|grow|change)\b", re.I)
_BRIDGE = re.compile(r"\b(?:in|during|for)\s+the\s+(quarter|month|year)\s+(?:when|in which|that|of)\s+(?:the\s+|our\s+)?"
                     r"([^,?]+)", re.I)
_TOTAL = re.compile(r"\b(total|aggregate|combined|sum|altogether|in all|add(?:ed|ing)? (?:\w+ )*?up|all together|"
                    r"(?:added|add|adding|taken|put) together)\b", re.I)
#: An explicit ask for the gap between two values: "how much higher", "how many more weeks", "by how much".
_DIFFERENCE = re.compile(r"\bhow (?:much|many) (?:[\w-]+ ){0,3}?(?:more|less|fewer|higher|lower|bigger|larger|smaller|"
                         r"greater|longer|shorter|cheaper|dearer)\b|\bby how (?:much|many)\b|\b(?:the )?difference\b|\bgap\b|"
                         r"\bhow far (?:[\w-]+ ){0,3}?(?:below|above|behind|ahead|short|down|up)\b", re.I)
#: "Rhinmark tender: ..." or "For the Rhinmark tender, ..." names the topic of every part that follows (a label,
#: not a question of its own).
_LABEL = re.compile(rf"^((?:(?!\b(?:{WH_WORD}|is|are|does|do|did)\b)"
                    r"[^:?])+):\s|^(?:for|about|regarding|on) (?:the |our )?([^,?:]+),\s+(?=(?:what|which|who|when|where|"
                    r"why|how|until|by|is|are|do|does|can)\b)", re.I)
#: "Harwick CSA - ...": a short name before a dash, the topic of each part after it.
_DASHED_LABEL = re.compile(rf"^((?:(?!(?:{WH_WORD}|is|are|does|do|did|can)\b)[\w&'’.]+\s+){{0,3}}[\w&'’.]+)\s+[-–—]\s+", re.I)
#: "the two incidents last year (the outage in Aug, the firmware bug in Nov)": two things of a kind, each described.
_DESCRIBED_PAIR = re.compile(r"\b(?:two|both)\s+(?:[\w-]+\s+){0,4}?\(\s*([^(),;]+?)\s*(?:,|;|\s+and\s+|\s+&\s+)\s*(?:and\s+)?"
                             r"([^(),;]+?)\s*\)", re.I)
#: "now", "currently": the present side of a comparison with a named year.
_NOW = re.compile(r"\b(?:now|currently|current|today|these days|at the moment)\b", re.I)
#: "now" alone ("the current one" is a version side of its own).
_NOW_WORD = re.compile(r"\bnow\b", re.I)
#: "the new policy ... the old 2023 one": the new side is the present one when the other is called old.
_NEW_AND_OLD = re.compile(r"\b(?:new|newer|latest|current)\b.*\b(?:old|older|previous|former|prior)\b|"
                          r"\b(?:old|older|previous|former|prior)\b.*\b(?:new|newer|latest|current)\b", re.I)
#: "the new X ... than the one in the 2023 policy", "the 2023 cap vs the new one": the new side is the present one.
_NEW_AGAINST_DATED = re.compile(r"\b(?:new|newer|latest)\b[^?;]*\b(?:than|compared (?:with|to)|vs\.?|versus|against)\b"
                                r"[^?;]*\b(?:19|20)\d{2}\b|\b(?:19|20)\d{2}\b[^?;]*\b(?:than|compared (?:with|to)|vs\.?|"
                                r"versus|against)\s+(?:the|our)\s+(?:new|newer|latest)\b", re.I)
_PUBLIC = re.compile(r"\b(public(?:ly)?|markets?|competitors?|competition|competing|regulators?|regulations?|"
                     r"regulatory|government|authorit(?:y|ies)|laws?|legislation|industry|news|press|analysts?|"
                     # the web as where to look, not a thing the company pays for ("the internet stipend")
                     r"(?:on|from|in|via|across|search\w*)\s+(?:the\s+)?(?:internet|web)|web\s*(?:sites?|pages?|search)|"
                     r"the\s+(?:internet|web)\s+(?:says?|said|shows?)|"
                     r"online|state (?:insurance|department|agency)|"
                     # a rule set outside the company, and market prices: "the new European rule", "EUR/USD"
                     r"(?:eu|european|federal|national|international|statutory)\s+(?:\w+\s+)?(?:rules?|standards?|directives?)|"
                     r"exchange rates?|currenc(?:y|ies)|fx|(?-i:[A-Z]{3}/[A-Z]{3}))\b", re.I)
#: "Veltrix's own trading update", "their press release": what a company publishes is on the web, whoever it is.
_PUBLISHED = re.compile(r"\b(?:trading update|press release|news release|newsroom|investor (?:update|relations)|"
                        r"product page|data ?sheet|public (?:statement|announcement))s?\b", re.I)
#: What may stand between "and" and the question word of a second ask: a hedge, a preposition ("..., and roughly how
#: many ...?", "..., and after how long ...?", "..., and by when ...?").
ASK_LEAD = (r"(?:(?:roughly|approximately|about|exactly|precisely|briefly)\s+)?"
            r"(?:(?:by|until|from|for|to|in|at|with|on|under|after|within|before)\s+)?")
_PART_SPLIT = re.compile(rf"[?;:]|,?\s+and\s+(?={ASK_LEAD}(?:what|who|when|where|which|how|why|whether|is|are|does|do|did|"
                         r"can|has|have)\b)|"
                         # "..., and according to the G2 manual what should ...": a second question with its own source
                         r",?\s+and\s+(?=(?:according to|per|under|in)\s+(?:the\s+|our\s+)?[\w-]+(?:\s+[\w-]+){0,3},?\s+"
                         r"(?:what|who|when|where|which|how|why|is|are|does|do|did|can|should|must)\b)|"
                         # "when does the term end, what happens afterwards, and ...": a list of questions
                         r",\s+(?=(?:what|when|where|how|why)\s+(?:is|are|was|were|does|do|did|happens?|happened|will|can|should|must)\b)|"
                         r",\s+(?=how\s+(?:much|many)\s+(?:[\w-]+\s+){0,2}?(?:we|they|you|it|he|she|i)\s)|"  # (", how much we offer")
                         r",\s+(?=(?:does|do|did|is|are|was|were|can|will|would|should|has|have)\s+(?:it|they|we|this|that)\s+\w)|"
                         # "Name the X, and say after how many days ...": a quiz's second instruction
                         r",?\s+and\s+(?:say|state|give|name|confirm)\s+(?=(?:\w+\s+)?(?:the|its|his|her|their|which|what|who|when|"
                         r"where|how)\b)|"
                         # "the value of the 1,150 meters, plus the yearly fees if all 240 gateways are on it?": a
                         # second figure asked with its own condition
                         r",\s+plus\s+(?=[^,?;]*\b(?:if|when|assuming|at|for)\s)",
                         re.I)
_NAME = re.compile(r"\b[A-Z][a-zA-Z&.]+(?!-?\d)(?:\s+[A-Z][a-zA-Z&.]+(?!-?\d))*")  # "LX" of "LX-200" is a code

#: "... did it actually cover", "... do they make up": the verb of a share whose part is a pronoun.
_COVERED_BY = (r"\s+(?:did|does|do|will|would|is|was|could)\s+(?:it|they|that|this)\s+(?:actually\s+|really\s+|in fact\s+)?"
               r"(?:cover|supply|provide|meet|make up|account for|represent|generate)\b")
#: How found numbers combine, in the order the grammar tries them (the first that matches wins).
OPERATIONS: dict[str, re.Pattern[str]] = {
    "share": re.compile(r"\b(?:share|proportion|fraction|portion)\s+of\b|\bwhat\s+%\s+of\b|"
                        # "what fraction did it actually cover?": the whole named before, by the statement it asks about
                        rf"\bwhat\s+(?:share|proportion|fraction|portion|percentage|part){_COVERED_BY}|"
                        r"\b(?:what|how (?:big|large|much)(?: of)?(?: an?)?) (?:percentage|percent|part) of\b|"
                        r"\bas an? (?:percentage|share) of\b|,\s*as an? (?:percentage|share)\s*\??$|"
                        rf"\baccount(?:ed|s)? for\b(?!\s+(?:the|this|that|its)\s+{_CHANGE_WORD})|"
                        r"\bwhat (?:share|proportion|fraction|percentage|percent|part) (?:is|was|are|were) (?:that|this|it)\b|"
                        r"^\s*of (?:all )?[^,]+,\s*(?:what|which|how much) (?:percentage|percent|share|part|fraction)\b",
                        re.I),
    "percentage-point change": re.compile(r"\bpercentage[- ]points?\b|\bpp\b|\bpts\b|\bhow many points\b|\bin points\b|"
                                          r"\bbasis points?\b|\bbps\b|"
                                          r"\bpoints (?:higher|lower|up|down|more|less)\b", re.I),
    "percent change": _PERCENT,
    "average": re.compile(r"\b(?:average|averaged|mean)\b", re.I),
    "ratio": re.compile(r"\bper (?!cent\b|diem\b|se\b)[a-z]+\b|\bratio\b|\bhow many times\b|\btimes (?:as|more|larger|"
                        r"higher|bigger)\b|\bfor every\b", re.I),
    "sum": _TOTAL,
    "max": re.compile(r"\b(?:most|highest|largest|biggest|greatest|top|more|larger|bigger|higher)\b", re.I),
    "min": re.compile(r"\b(?:least|lowest|smallest|fewest|less|fewer|smaller|lower)\b", re.I),
}
#: A change measured against where it started: "the drop ... as a fraction of the September level".
_CHANGE_AS_SHARE = re.compile(r"\b(?:drop|fall|decline|decrease|increase|rise|growth|change|gap)\b[^?.;]*?\bas an? "
                              r"(?:fraction|share|percentage|proportion|percent)\s+of\b", re.I)
#: Which words of a share question name the whole and which the part: "what share of <whole> came from <part>",
#: "of all <whole>, what percentage <part>", "<part> as a share of <whole>".
#: "the solar roof would cover about an eighth of the site's electricity": a statement of a share, its part and whole.
_STATED_SHARE = re.compile(r"(?P<part>[^,;]+?)\s+(?:would|will|should|"
                           r"could|was to|were to|is to)\s+(?:cover|supply|provide|meet|make up|account for|generate)\s+"
                           r"(?:about\s+|around\s+|roughly\s+|some\s+|up to\s+)?(?:an?\s+[a-z]+|one\s+[a-z]+|half|\d+(?:\.\d+)?\s*%)"
                           r"\s+of\s+(?P<whole>[^?;,.]+)", re.I)
#: "the site's", "the plant's": a place the statement names otherwise.
_NAMED_PLACE = re.compile(r"\b([A-Z][\w-]+)\s+(?:[a-z]+\s+){0,2}(?:site|plant|factory|office|line|expansion|extension|"
                          r"facility|campus|depot|warehouse)\b")
_OWN_PLACE = re.compile(r"\bthe\s+(?:site|plant|factory|office|building|facility|campus|depot|warehouse)(?:['’]s)?\b", re.I)
_SHARE_OF = (
    re.compile(r"(?:\b(?:share|proportion|fraction|portion|percentage|percent|part)|(?<=\s)%)\s+of\s+(?P<whole>[^?;,]+?)\s+"
               r"(?:came|comes|come|went|goes|go|was|were|is|are|did|does|do|has|have|had|would|will|could|might)\s+"
               r"(?P<part>[^?;,]+)", re.I),  # ("what fraction of our cash would the price use up")
    re.compile(r"^\s*of\s+(?:all\s+)?(?P<whole>[^,]+),\s*(?:what|which|how much)\s+(?:share|proportion|fraction|"
               r"percentage|percent|part)\s+(?P<part>[^?;]+)", re.I),
    re.compile(r"(?P<part>[^,?;]+?)\s+as an?\s+(?:percentage|percent|share|fraction|proportion)\s+of\s+"
               r"(?P<whole>[^?;,]+)", re.I),
    re.compile(r"\bhow much of\s+(?P<whole>[^?;,]+?)\s+(?:was|were|is|are|did)\s+(?:[\w-]+\s+)?(?:by|from|for|on|in)\s+"
               r"(?P<part>[^?;,]+)", re.I),  # "how much of the 2024 electricity was used by Penang, as a percentage?"
    re.compile(r"^\W*(?:(?:what|whats|what's|what is|what was)\s+(?:the|was|is|were)?\s*)?(?P<part>[^,?;:]+?)(?:'s|’s)?\s+"
               r"(?:share|proportion|percentage)\s+of\s+(?P<whole>[^?;,]+)", re.I),  # "LX-200 share of total bookings"
)
#: "how many $M of Q2 revenue came from subscriptions": an amount worked out from the share the documents give the part
#: and the whole it is a share of.
_PORTION = re.compile(r"\bhow (?:much|many)\s+(?:\$\s?[mbk]?|dollars?|euros?|money|millions?)\s+(?:of|in)\s+"
                      r"(?P<whole>[^?;,]+?)\s+(?:came|comes|come|went|goes|go|was|were|is|are|did)\s+(?:\w+\s+)?"
                      r"(?:from|to|for|in|by)\s+(?P<part>[^?;,]+)", re.I)
_PART_VERB = re.compile(r"^(?:(?:came|comes|come|went|goes|go|gets?|got)\s+)?(?:from|to|into|on|for)\s+", re.I)


def clause_words(measure: str) -> str:
    """The usual clause of an agreement a measure belongs to, in its other words ("payment period" -> "payment terms
    payment pay pays invoice"): a search in those words finds a clause the measure's own words miss ("Invoices are
    payable within 45 days"); "" for a measure of no clause."""
    return next((f"{aspect} {cues}" for aspect, cues in _aspects_of(measure)), "")


def _aspects_of(words: str) -> list[tuple[str, str]]:
    """The usual clauses (aspect, its other words) whose words ``words`` shares."""
    said = set(terms(words))
    return [(aspect, cues) for aspect, cues in _ASPECT_WORDS.items() if set(terms(cues)) & said]


def _contract_clause(subject: str) -> str:
    """The usual clause of an agreement that a compared measure speaks of in other words ("gives the customer longer
    to pay" -> "payment terms pay pays invoice"); "" when it speaks of none, or names the clause itself (the
    "termination-for-convenience right" is asked as it is)."""
    words = set(terms(subject))
    return next((" ".join(dict.fromkeys(f"{aspect} {cues}".split())) for aspect, cues in _aspects_of(subject)
                 if not set(terms(aspect)) & words), "")


def share_asked(clause: str) -> tuple[str, str] | tuple[()]:
    """The part and the whole of the share one ask of a question asks for ("what fraction of A's use did B cover?"),
    else nothing."""
    return _share_of(clause) if OPERATIONS["share"].search(clause) else ()


def _share_of(text: str, patterns: tuple[re.Pattern[str], ...] = _SHARE_OF, context: str = "") -> tuple[str, str] | tuple[()]:
    """(part, whole) of a share question, each as search words; a parenthesis explains, it does not name; a part
    that is only "it" ("solar roof - what % of the plant's power did it cover?") is what the statement before names."""
    for pattern in patterns:
        m = pattern.search(text)
        if m:
            part = _PART_VERB.sub("", re.sub(r"\([^)]*\)", " ", m["part"]).strip())
            if context and re.match(r"(?:it|they|this|that)\b", part, re.I):
                part = context
            found = (key_phrase(part), key_phrase(m["whole"], AGGREGATE_WORDS))  # "europe overall": the part as asked
            if all(found):
                return found
    stated = _STATED_SHARE.search(context) if context and re.search(_COVERED_BY, text, re.I) else None
    part = re.split(r"\b(?:that|said|promised|claimed|expected|stated)\s+", stated["part"])[-1] if stated else ""
    whole = stated["whole"] if stated else ""
    place = _NAMED_PLACE.search(context) if stated and _OWN_PLACE.search(whole) else None
    whole = f"{place[1]} {_OWN_PLACE.sub(' ', whole)}" if place else whole  # ("the Penang line ... the site's power":
    # the site is Penang)
    if stated and key_phrase(part) and key_phrase(whole):  # "X was to cover an eighth of Y. What fraction did it cover?"
        return key_phrase(part), key_phrase(whole, AGGREGATE_WORDS)
    return ()


def _nested(sides: list[str]) -> bool:
    """Whether one period side lies inside another ("Q4 2022" in "2022"): a share of the one in the other."""
    spans = [period_range(side) for side in sides]
    return any(a and b and a != b and b[0] <= a[0] and a[1] <= b[1] for a in spans for b in spans)


def _without_periods(phrase: str) -> str:
    """A key phrase without the periods it names ("penang line item 2024 vs 2025" -> "penang line item"): each
    period is a side of its own."""
    return " ".join(w for w in phrase.split() if not find_periods(w) and w.lower() not in ("vs", "versus"))


#: What each operation means, for questions the grammar does not cover ("what was the typical monthly figure").
OPERATION_MEANINGS = {
    "average": "the average value: the typical monthly amount across several periods",
    "share": "what part of the whole total one item makes up, as a percentage",
    "ratio": "the value for each single unit, one amount divided by another",
    "sum": "the total of several amounts added together",
}


@dataclass(frozen=True)
class Question:
    """The parts of a question that drive searches and calculations."""

    text: str                   # the question with relative dates made absolute
    query: str                  # its key terms with years filled in: a standalone search query
    periods: tuple[Period, ...]  # every period it names, years filled in
    subject: str                # what is measured or asked about, e.g. "gross margin"
    sides: tuple[str, ...]      # the compared items (periods or names); empty unless a comparison
    cause: bool                 # asks for reasons
    direction: str              # "increase", "decline" or "" (unknown until numbers are seen)
    percent: bool               # asks for a relative change rather than a difference
    total: bool                 # asks for the sum of the sides ("total bookings for October and November")
    amount: bool                # asks by how much one thing changed ("by how many dollars did the price go up")
    parts: tuple[str, ...]      # specific searches for each part of a multi-part question
    orders: bool                # asks about an order or a shipment
    public: bool                # asks for public, market or regulator information
    source: str = ""            # the document the question says to use ("December 2024 all-hands")
    reviewed: str = ""          # what a review question asks to check, e.g. "Sable Rail contract"
    qualifiers: tuple[str, ...] = ()  # per side, the version of the figure asked for: ("budgeted", "actual")
    measures: tuple[str, ...] = ()  # several things compared over the same sides: ("hotel cap", "per diem")
    operations: tuple[str, ...] = ()  # per measure, its own operation when the asks differ ("in %", "in points")
    referring: tuple[str, ...] = ()  # parts that point back to an earlier part's answer ("its address")
    bridge: tuple[str, str] = ()  # ("quarter", "contract started"): a period known only from an event's date
    share_of: tuple[str, ...] = ()  # ("rooftop solar", "plant electricity"): a share's part and whole, each searched
    choice: bool = False        # asks which side is larger ("which ... more"): the gap is larger minus smaller
    monthly: bool = False       # each compared quarter is the sum of its months ("q3 vs q4 (sum of the months)")
    operation: str = ""         # how the numbers combine: a key of OPERATIONS or "difference"; "" when none
    answer_type: str = "fact"   # what the answer must contain: "figure", "comparison", "reasons", "review", ...
    extreme: str = ""           # "top temperature", "go colder": which end of a stated range is asked ("max", "min")
    owner: str = ""             # whose thing "their contract" asks about, named by the scene before the question
    aside: str = ""             # terms of names the framing gives that are not asked about ("For Ann's 9am": ann)
    conversion: Conversion | None = None  # the rate an amount in another currency is converted at, when asked
    across: tuple[str, ...] = ()  # names each measured over the sides' periods, then compared ("which region fell more")
    sources: tuple[tuple[str, bool], ...] = ()  # two documents it names as where to look, each with whether it is ours

    def __str__(self) -> str:
        return self.describe()

    def describe(self) -> str:
        """The analysis as a short table a learner can read: what the model understood and will look for."""
        rows = [("question", self.text), ("sub-questions", " | ".join(self.parts)),
                ("sides", " | ".join(self.label(s) for s in self.sides) or "-"),
                ("measure", " | ".join(self.measured) or "-"), ("period", self.period_phrase or "-"),
                ("operation", " | ".join(self.operations) or self.operation or "-"), ("answer", self.answer_type),
                ("searches", " | ".join(self.searches()))]
        rows += [(name, value) for name, value in (("reasons", "yes" if self.cause else ""), ("source", self.source),
                 ("whose", self.owner), ("orders tool", "yes" if self.orders else ""), ("web", "yes" if self.public else ""),
                 ("converts at", self.conversion.rate if self.conversion else "")) if value]
        return "\n".join(f"{name:>13}: {value}" for name, value in rows)

    @property
    def comparison(self) -> bool:
        return len(self.sides) >= 2

    @property
    def period_phrase(self) -> str:
        return period_phrase(list(self.periods))

    def label(self, side: str) -> str:
        """A side as an answer names it: "Q3 2024", or "Q3 2024 actual" when the question says which version."""
        qualifier = dict(zip(self.sides, self.qualifiers, strict=True)).get(side, "") if self.qualifiers else ""
        return f"{side} {qualifier}".strip()

    def extreme_of(self, measure: str) -> str:
        """Which end of a stated range ``measure`` asks for: the question's, unless it asks several measures, when
        only one that says so ("the accuracy and the max pipe size": the pipe size's top end) asks for an end."""
        return _extreme(measure) if len(self.measured) > 1 else self.extreme

    @property
    def measured(self) -> tuple[str, ...]:
        """What is compared: each measure the question names, else its subject."""
        return self.measures or (self.subject,)

    def side_query(self, side: str, measure: str) -> str:
        """The specific search for one side of one measure: "Q3 2024 gross margin"; a measure of several words that
        business writing also names in one is searched with that word too ("order intake" and "bookings")."""
        relative = not set(terms(side)) - RELATIVE_SIDE  # "the current one": not in the other side's period
        period = "" if find_periods(side) or relative else self.period_phrase  # "Northern Europe bookings Dec 2024"
        other = next((w for w in same_measure(measure)[:1] if len(w.split()) < len(measure.split())), "")
        other = " ".join(word for word in other.split() if word not in measure.split())
        searched = re.sub(r"\bper-(?=[a-z])", "per ", measure)  # ("per-diem": a rate's mark, which no passage writes)
        return " ".join(f"{self.label(side)} {searched} {other} {period} {self.source}".split())

    def side_queries(self) -> list[str]:
        """One specific search per compared side (and measure); for a quarter that is the sum of its months, one
        per month, and one for the quarter itself (a figure reported only by quarter is found there)."""
        return [self.side_query(part, measure) for measure in self.measured for side in self.sides
                for part in ([*months_of(side), *([side] if SUMMED not in side else [])] if self.monthly else [side])]

    def cause_query(self, direction: str = "") -> str:
        """The search for the reasons, e.g. "reasons for the Q3 2024 gross margin increase"."""
        latest = sorted(self.periods, key=Period.sort_key)[-1:] if len(self.sides) == 2 else self.periods
        change = direction or self.direction or ("change" if self.comparison else "")
        # (a measure of several words that business writing also names in one is searched with that word too:
        # "order intake" and "bookings", as for each side)
        other = next((w for w in same_measure(self.subject)[:1] if len(w.split()) < len(self.subject.split())), "")
        other = " ".join(word for word in other.split() if word not in self.subject.split())
        weights = "relative weight of each cause" if _ASKS_CAUSE_WEIGHT.search(self.text) else ""
        words = [period_phrase(list(latest)), self.subject, other, change, self.source, weights]
        return "reasons for the " + " ".join(w for w in words if w)

    def source_queries(self) -> list[tuple[str, bool]]:
        """For a question that names two documents ("is the interval in our manual enough under the new EMSB rule?"):
        a search in each, by the document's words and the question's others, with whether the document is ours."""
        rest = [w for w in self.query.split() if not any(w in source.split() for source, _ in self.sources)]
        return [(" ".join(dict.fromkeys([*source.split(), *rest])), ours) for source, ours in self.sources]

    def searches(self) -> list[str]:
        """The searches that need no earlier result: the sides, or one per part, plus the reasons if known."""
        if self.bridge:
            return [self.bridge[1]]
        if self.reviewed:  # each clause the review names ("the renewal clause"), else every usual one
            # ("Check X, in particular liability and price fixing. Does it contain red flags?": named in the
            # sentence before the ask)
            named = [aspect for aspect, _ in _aspects_of(" ".join([self.text, *self.parts]))] or REVIEW_ASPECTS
            asked = [p for p in self.parts[1:] if not _REVIEW.search(p) and not _AGAINST_STANDARD.search(p)]
            standard = _STANDARD.search(self.text)  # "against the contract checklist": what the standard says of
            held = [f"{standard[0].lower()} {aspect}" for aspect in named if standard and named != REVIEW_ASPECTS]
            level = STANDARD_LEVEL.findall(self.text) if standard and named == REVIEW_ASPECTS else []
            held += [f"{standard[0].lower()} {level[-1].lower()}"] if level else []  # "... marked amber under the
            # checklist": what the checklist flags amber, each then looked up in the agreement
            return list(dict.fromkeys([self.query, *(" ".join(dict.fromkeys(f"{self.reviewed} {aspect} {cues}".split()))
                                                     for aspect in named  # (in the clause's other words too:
                                                     for cues in [_ASPECT_WORDS[aspect]]),  # "pay ... invoices")
                                       *(f"{self.reviewed} {part}" for part in asked), *held]))  # each named clause
        queries = self.side_queries() if self.comparison else [p for p in self.parts if p not in self.referring]
        if self.across:  # "which region fell more between Sep and Dec": each name in each period
            queries = [f"{side} {name} {self.subject}".strip() for name in self.across for side in self.sides]
        queries += [query for query, _ in self.source_queries()]
        if self.cause and (self.direction or not self.comparison):
            queries.append(self.cause_query())
        periods = all(find_periods(side) for side in self.sides)
        if self.share_of and self.comparison and not self.measures and periods:  # a share in each period: each
            # period's part and its whole, searched by their own words
            queries = [f"{side} {words}" for side in self.sides for words in self.share_of]
        elif self.share_of:  # the whole often stands in a sentence of its own ("the garage has 180 spaces"), in the
            # question's period unless that only says since when the part has been going on ("handed out since April")
            since = re.search(r"\b(?:since|starting|after)\s+\w+", self.share_of[0], re.I)
            queries.append(" ".join(dict.fromkeys(f"{self.share_of[1]} {'' if since else self.period_phrase}".split())))
        return list(dict.fromkeys(q for q in queries if q))


#: How a side that is several periods added up is written: "Q1 2024 + Q2 2024".
SUMMED = " + "


def months_of(side: str) -> list[str]:
    """The periods a summed side adds up: the three months of a quarter ("Q3 2024" -> "July 2024", ...), the
    quarters of a half written out ("Q1 2024 + Q2 2024"); any other side stays itself."""
    if SUMMED in side:
        return side.split(SUMMED)
    found = find_periods(side)
    if len(found) != 1 or found[0].kind != "quarter" or not found[0].year:
        return [side]
    quarter = found[0]
    return [f"{MONTHS[m - 1].capitalize()} {quarter.year}" for m in range(3 * quarter.number - 2, 3 * quarter.number + 1)]


def _grouped_periods(sides: list[str], periods: list[Period]) -> list[str]:
    """The sides as one sum per year, when they are the same quarters or months of two or more years ("Q1 2024",
    "Q2 2024", "Q1 2023", "Q2 2023" -> "Q1 2024 + Q2 2024", "Q1 2023 + Q2 2023"), or those of one year asked for
    several ("Q1 and Q2 for 2023 and for 2024"); else nothing."""
    found = [find_periods(side) for side in sides]
    if len(sides) < 2 or not all(len(f) == 1 and f[0].kind in ("quarter", "month") and f[0].year for f in found):
        return []
    years = list(dict.fromkeys(f[0].year for f in found))
    asked_years = list(dict.fromkeys(p.year for p in periods if p.kind == "year" and p.year))
    if len(years) == 1 and len(asked_years) >= 2 and years[0] in asked_years:  # "... for 2023 and for 2024"
        kind, numbers = found[0][0].kind, [f[0].number for f in found]
        return [SUMMED.join(Period(year, kind, n).text for n in numbers) for year in asked_years]
    groups = {year: [f[0] for f in found if f[0].year == year] for year in years}
    numbers = {tuple(sorted((p.kind, p.number) for p in group)) for group in groups.values()}
    if len(groups) < 2 or len(numbers) != 1 or len(next(iter(groups.values()))) < 2:
        return []
    return [SUMMED.join(p.text for p in sorted(group, key=lambda p: p.sort_key())) for group in groups.values()]


def period_phrase(periods: list[Period]) -> str:
    """Periods written compactly: "Q3 and Q2 2024", "October, November and December 2024"."""
    if not periods:
        return ""
    years = {p.year for p in periods}
    months = sorted(p.number for p in periods if p.kind == "month")
    if len(periods) == 3 == len(months) and len(years) == 1 and months[0] % 3 == 1 and months[2] - months[0] == 2:
        return Period(years.pop(), "quarter", months[2] // 3).text  # October to December 2024 is Q4 2024
    if len(years) == 1 and len(periods) > 1 and None not in years and all(p.kind != "year" for p in periods):
        names = [Period(None, p.kind, p.number).text for p in periods]
        return f"{', '.join(names[:-1])} and {names[-1]} {years.pop()}"
    return " ".join(p.text for p in periods)


def key_phrase(text: str, drop: frozenset[str] = frozenset()) -> str:
    """The content words of ``text`` in their original order and spelling: a specific search query."""
    text = normalise_periods(text)
    kept = []
    for token in re.findall(r"[A-Za-z0-9$%](?:[\w.%$'-]|,(?=\d))*", text):
        word = token.lower().removesuffix("'s").rstrip(".'")
        if word in STOPWORDS or word in drop or not word:
            continue
        kept.append(token.removesuffix("'s").rstrip(".'"))
    return " ".join(kept)


_PLURAL_NOUNS = frozenset({"sales", "earnings", "goods", "news", "logistics", "analytics", "savings", "terms"})


def _singular(word: str) -> str:
    """"margins" -> "margin" (so a side query reads "Q3 2024 gross margin"); "sales" stays "sales", as do "basis" and
    "bonus" (a Latin or Greek singular)."""
    if word.lower() in _PLURAL_NOUNS or word.lower().endswith("ves"):  # "loaves", "shelves": no "loave"
        return word
    if len(word) > 4 and word.lower().endswith("ies"):  # "penalties" -> "penalty", not "penaltie"
        return word[:-3] + "y"
    if len(word) > 3 and "-" not in word and word.endswith("s") and not word.endswith(("ss", "is", "us")) and stem(word[:-1].lower()) == stem(word.lower()):
        return word[:-1]
    return word


#: Words that ask which side is ahead: "more", "lower", "bigger", "cheaper", ...
_COMPARATIVES = (r"more|most|less|least|fewer|higher|lower|larger|smaller|bigger|better|worse|greater|cheaper|dearer|"
                 r"longer|shorter|faster|slower|older|newer|stricter|tougher|colder|hotter|warmer|cooler")


#: Words of a question that are not the measure: cues, directions, totals, "the two scores", how often or how a
#: figure is counted ("monthly order intake", "add up", "the record") and month names.
#: "the reasons given", "the causes they cited": how reasons were offered, not what they are about.
_GIVEN = word_set("given cited mentioned stated offered listed named provided")
#: "What's the short explanation?" after a statement: how the answer should read, not what it is about.
_FRAMING = word_set("short brief quick simple plain summary gist overview answer exactly actually really precisely "
                    "specifically basically")  # ("What exactly caused that?": how sure the asker wants to be)

#: Words that say how figures are asked for or combined, not what is measured ("the year-on-year change").
NOT_MEASURED = _GIVEN | CUE_WORDS | INCREASE_WORDS | DECREASE_WORDS | MOVE_WORDS | AGGREGATE_WORDS | word_set("""
our their its and the two three both each monthly quarterly annual annually yearly quarter quarters month months add
adding added record january february march april may june july august september october november december jan feb apr
jun jul aug sep sept oct nov dec go goes went gone one ones replace replaced replaces replacing far again i.e e.g
looking asking gap manage managed anyone anybody noticing noticed old former previous current
confirm confirmed state reconcile reconciled check verify reported represent represents year-on-year delta pp
exact exactly really actually every deltas dragged pushed pulled weighed hurt boosted lifted swing swings true correct
coming come came comes step steps big exceed exceeds exceeded surpass surpasses surpassed outstrip outstrips
expressed express expresses stated rounded respective respectively
""") | word_set(_COMPARATIVES.replace("|", " "))  # "the tougher cap": which side is ahead, not what is measured


def _rate_joined(text: str) -> str:
    """"per gateway" as one word ("per-gateway"): a rate's mark, which a key phrase would otherwise drop; "per full
    year" is a full-year figure."""
    text = re.sub(r"\b(?:per|for\s+a|for\s+the|over\s+a)\s+full\s+year\b", "full-year", text, flags=re.I)
    return re.sub(r"\b([Pp]er)\s+(?!cent\b)([a-z]+)\b(?![\w-])", r"\1-\2", text)


def _subject(clause: str, sides: list[str]) -> str:
    clause = _NOT_A_MEASURE.sub(" ", clause)
    if sides:  # "how long was each down" (an event past, not "how long is the warranty"): each side's duration
        clause = re.sub(r"\bhow long\b(?=\s+(?:was|were|did)\b)", "duration", clause, flags=re.I)
    kinds = [re.findall(rf"\b([a-z][\w-]*)\s+of\s+(?:the\s+)?{re.escape(side)}\b", clause) for side in sides if _is_name(side)
             and not find_periods(side)]  # ("the cost of 2025 ... the cost of 2024": what a period has is measured)
    if len(kinds) >= 2 and all(kinds) and len({k[0] for k in kinds}) == 1:  # "the office of Rotterdam ... the office of
        clause = re.sub(rf"\b{re.escape(kinds[0][0])}\s+of\s+(?:the\s+)?", " ", clause)  # Austin": the sides' kind
    for side in sorted(filter(None, sides), key=len, reverse=True):
        # "does the Oakridge framework agreement set": the side's kind and the verb that gives its figure
        clause = re.sub(rf"{re.escape(side)}(?:\s+[a-z][\w-]*){{0,2}}?\s+(?:sets?|gives?|says?|states?|specif(?:y|ies))\b",
                        side, clause)
        # "the VX-9 price we're seeing in quotes": where the side was met is not what is measured
        clause = re.sub(rf"{re.escape(side)}{_PRONOUN_LEAD}[^,;:?—–]*?(?=\s[-–—]\s|[,;:?—–]|$)", side, clause)
        clause = clause.replace(side, " ")
    # "more accurate", "hotter": a graded adjective names the measure ("accuracy", "temperature")
    clause = re.sub(r"\b(?:(?:more|less|most|least)\s+([a-z]+)|([a-z]+(?:er|est)))\b",
                    lambda m: m[0].replace(m[1] or m[2], dimension(m[1] or m[2]) or m[1] or m[2]), clause)
    if sides:  # "which bakery sold more": "bakery" names the kind of the sides, not what is measured, as does
        # "(on) my two utility accounts"
        clause = re.sub(r"\b(?:(?:on|for|of|across)\s+)?(?:my|our|the|these|those)\s+(?:two|three|four|both)\s+(?:[\w-]+\s+)?"
                        r"[\w-]+s\b(?!\s+(?:has|have|is|are|was|were)\b)", " ", clause, flags=re.I)
        # "what accuracy does each claim", "what severity was each": the thing asked for, before the verb that asks
        # it, is the measure
        clause = re.sub(r"\bwhat\s+(?=[a-z][\w-]*\s+(?:does|do|did|is|was|are|were)\s+(?:each|both|either|they|it)\b)",
                        " ", clause,
                        flags=re.I)
        clause = re.sub(r"\bwhich\s+of\s+(?:the\s+|these\s+|those\s+|our\s+)?(?:two|three|four|both)\s+[^,?]*?"
                        r"(?=,|\s(?:has|have|had|is|are|was|were|does|do|did)\b)|"  # "which of the two sales offices has"
                        r"\b(which|what)\s+[\w-]+\b(?!\s+(?!(?:is|are|was|were|has|have|had|did|does|do|can|will)\b)[a-z][\w-]*\s+"
                        r"(?:is|are|was|were|has|have|had|did|does|do|can|will)\b)|\bwhose\b", " ", clause, flags=re.I)
        # ("what notice period does ...": a two-word measure after "what" stays)
        clause = re.sub(r"\b(?:is|are|was|were)\s+(?:more\s+|less\s+)?[a-z]+(?:er|ier)\b(?:\s+(?:on|for|to)\s+(?:the\s+|our\s+)?\w+)?",
                        " ", clause)  # "is tougher on us"
    clause = re.sub(r"'s\b|\baccount(?:s|ed)? for\b|\bthis time\b|\bbasis points?\b|\bbps\b", "", clause)  # "which items account for the decline"
    clause = re.sub(r"\b([\w-]+)\s+(?:part|portion|component|element) of (?:the|our|its)\s+(?:[\w-]+\s+)?[\w-]+"
                    r"(?=\s+(?:is|are|was|were|has|have|had|in|for|at|on|to|and|or|vs|versus|than)\b|\s*[,?.;:—–]|$)", r"\1",
                    clause)  # "the market-adjustment part of the pay review": the market adjustment
    clause = _rate_joined(clause)
    # ("the growth rate": how the sums compare, not a rate measured; "in light of the reports": where to look)
    clause = re.sub(r"\b(?:growth|change)\s+rate\b|\brate\s+of\s+(?:growth|change)\b|\bin\s+light\s+of\b", " ", clause,
                    flags=re.I)
    clause = re.sub(r"\b[QH][1-4]\b|\b(?:19|20)\d{2}\b", " ", normalise_periods(clause))
    # "from 42.1% to 45.2%": figures the question gives are not what is measured; a version ("3.4.0") names a thing
    clause = NUMBER.sub(lambda m: m[0] if re.match(r"\.\d", clause[m.end():m.end() + 2]) else " ", clause)
    return " ".join(dict.fromkeys(_singular(w) for w in key_phrase(clause, NOT_MEASURED).split()))


def _refined_subject(main: str, clauses: list[str], sides: list[str]) -> str:
    """The compared clause's subject, plus what a clause without periods or causes adds to it when sides are
    compared: in "2024 budget vs 2025 budget: how do the revenue targets differ?" it follows the colon."""
    if not sides:
        return _subject(main, sides)
    named = not any(find_periods(side) for side in sides)  # "nov 2024 bookings: A vs B": a period is no side here
    extra = [_subject(c, sides) for c in clauses  # ("Does that reconcile to the 20% quoted in X?" measures nothing)
             if c != main and (named or not find_periods(c)) and not _CAUSE.search(c) and not _CHECKS_ANSWER.search(c)]
    return " ".join(dict.fromkeys(" ".join([_subject(main, sides), *extra]).split()))


def _with_brand(clause: str, code: re.Match[str]) -> str:
    """A product code with the brand name written before it ("Veltrix VX-9"): the brand belongs to the side."""
    before = re.search(r"((?:[A-Z][\w&.]*\s+)+)$", clause[:code.start()])
    brand = [w for w in (before[1].split() if before else []) if w.lower() not in STOPWORDS | CUE_WORDS]
    return " ".join([*brand, code[0]])


_ALTERNATIVES = re.compile(r"[,:;?]|\s[-–—]\s|\bwhich\b|\bwho\b|\bwhether\b", re.I)


def _alternatives(clause: str) -> list[str]:
    """The items offered as a choice: "..., North Street or Harbor Lane", "a, b or c", "whether x or y"."""
    label, colon, rest = clause.partition(":")
    if colon and re.search(r"\bor\b", rest) and not re.search(r"\bor\b", label):
        clause = rest  # "Late-delivery caps: Halvorsen or Oakridge, which ...": the label names the measure
    segments = [seg.strip() for seg in _ALTERNATIVES.split(clause)]
    for index, segment in enumerate(segments):
        segment = re.split(r"\b(?:did|does|do|is|are|was|were|has|have|had|will|can)\s+(?=\S+\s.*\bor\b)", segment,
                           flags=re.I)[-1]  # "in May 2022 did upper valley or ...": the choice starts after the verb
        m = re.fullmatch(r"(?:the\s+|our\s+)?(.+?)\s+or\s+(?:the\s+|our\s+)?(.+?)", segment, re.I)
        if m and len(m[2].split()) > 6 and _is_name(m[2].split()[0]) and _is_name(m[1].split()[-1]):
            m = re.fullmatch(r"(?i:the\s+|our\s+)?(.+?)\s+or\s+(?i:the\s+|our\s+)?((?:[A-Z][\w&.-]*\s*)+).*", segment,
                             re.S)  # "whether the new Veltrix VX-9 or our LX-200 is more accurate. ..."
        if not m or len(m[1].split()) > 6 or len(m[2].split()) > 6:
            continue
        before = []
        for earlier in reversed(segments[:index]):  # "a, b or c": short items listed before the "or"
            if not earlier or len(earlier.split()) > 3 or _ASKS_CHOICE.search(earlier) or not key_phrase(earlier, CUE_WORDS) \
                    or find_periods(earlier):
                break
            before.insert(0, re.sub(r"^(?:the|our)\s+", "", earlier, flags=re.I))
        second = m[2]
        first = key_phrase(m[1])
        if _is_name(first):  # "Northern Europe or Continental Europe book more": the name, not the verb
            second = re.match(r"(?:[A-Z][\w&.-]*\s*)+", second)[0] if second[:1].isupper() else second
        elif 0 < len(first.split()) <= 3 and len(second.split()) > len(first.split()) + 1 and _ASKS_CHOICE.search(second):
            second = " ".join(second.split()[:len(first.split())])  # "northern europe or continental europe bring more"
        sides = [re.sub(r"\s+ones?$", "", key_phrase(side)) for side in (*before, m[1], second)]  # "the Sable one"
        if all(sides) and not any(find_periods(side) for side in sides):
            return list(dict.fromkeys(sides))
    return []


def _is_name(phrase: str) -> bool:
    """Every word capitalised or a code: "Continental Europe", "Veltrix VX-9"."""
    return bool(phrase) and all(w[:1].isupper() or anchors(w) for w in phrase.split())


#: "each of them", "both of them": the sides named before, pointed back to.
_BACK_TO_SIDES = re.compile(r"\b(?:each|both|either|all)\s+of\s+(?:them|the two|those)\b", re.I)


def _named_sides(clause: str) -> list[str]:
    """Two or more product codes, proper names or offered alternatives compared in a clause."""
    offered = _alternatives(clause)
    if len(offered) >= 2:
        return offered
    versus = _versus(clause)
    if versus and all(len(side.split()) <= 4 for side in versus):  # "contracts: Brightwater vs Sable Rail, which ..."
        return versus
    codes = [_with_brand(clause, m) for m in re.finditer(r"\b[A-Za-z]+-?\d[\w-]*\b", clause) if anchors(m[0])
             and not find_periods(m[0])  # "Q4" is a period, not a product, and "order BK-0193" a record's id
             and not re.search(r"\b(?:order|shipment|invoice|ticket|case)\s+(?:no\.?\s+|number\s+|#\s*)?$",
                               clause[:m.start()], re.I)]
    if len(set(codes)) >= 2:
        return list(dict.fromkeys(codes))
    first = clause.split()[0] if clause.split() else ""
    # "A and B ..., and what each of them pays for C?": a name after the sides are pointed back to is what is asked
    named = clause[:back.start()] if (back := _BACK_TO_SIDES.search(clause)) else clause
    names = [n for n in _NAME.findall(named) if n != first and n.lower() not in STOPWORDS | CUE_WORDS
             and not find_periods(n)]
    if len(set(names)) >= 2:
        return list(dict.fromkeys(names))
    than = _THAN.search(clause)  # "how many more weeks does the day shift get than the night shift?"
    if than and _ASKS_CHOICE.search(clause[:than.start()]) and key_phrase(than[1]) and key_phrase(than[3]):
        first, second = key_phrase(than[1]), key_phrase(than[3])
        if than[2] and than[2].lower() == second.split()[-1].lower():  # "get a night nurse compare to a day nurse"
            first = f"{first} {than[2]}"
        # "... compared with the secondary one": "one" stands for the first side's noun
        return [first, re.sub(r"\bones?$", first.split()[-1], second)]
    return versus


#: "the four quarters of 2023", "each quarter of 2024": a year's quarters, compared.
_EVERY_QUARTER = re.compile(r"\b(?:the\s+)?(?:four|all|each|every)\s+(?:of\s+the\s+)?quarters?\s+(?:of|in)\s+((?:19|20)\d{2})\b",
                            re.I)
#: A statement about a party: "Dunmore School is unhappy ...", "Brightwater's ops lead ...", "... from Kelso Mills".
_PARTY = re.compile(r"^[A-Z][\w&-]*['’]s\s|^(?:[A-Z][\w&-]*\s+)+(?:is|are|was|were|has|have|had|keeps?|wants?|says?)\b|"
                    r"(?<!^)\b[A-Z][a-z]+(?:\s+[A-Z][\w-]+)+")
#: A name inside a clause (not its first word): "the Oakridge Chemicals framework agreement".
_CLAUSE_NAME = re.compile(r"(?<=[a-z] )[A-Z][\w&-]*(?:\s+[A-Z][\w&-]*)*")
#: "Which of the two ...?" after a statement that names them: "Brightwater and Sable Rail both roll over."
_OF_THE_TWO = re.compile(r"\b(?:which|who)\s+of\s+(?:the\s+|these\s+|those\s+)?(?:two|both|them)\b|"
                         r"\b(?:under|in|for)\s+each\s+(?:of\s+them|one|contract|agreement|case)\b", re.I)
#   ("... — A and B. How fast must a unit be replaced under each contract?": each of the two named before)
_LISTED_NAME = r"[A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*)*"
_NAMED_PAIR = re.compile(rf"\b({_LISTED_NAME})\s+(?:and|or|&)\s+(?:(?:the|our|one|a|an)\s+)?({_LISTED_NAME})")  # ("one
#   PX-7 and one LX-200")
#: "Of the Brightwater, Cedar Valley and Halvorsen agreements, which ...": named sides before the question.
_OF_LIST = re.compile(rf"^\s*(?i:of|among|out of)\s+(?i:the\s+|our\s+|these\s+|those\s+)?({_LISTED_NAME}(?:,\s*{_LISTED_NAME})*"
                      rf",?\s+(?:and|or)\s+{_LISTED_NAME})(?:\s+[a-z][\w-]*)?\s*,\s*(?=(?i:which|who|what|whose)\b)")
#: "For the three agreements Erin owns — A, B and C — what are ...": named sides set off by dashes (or after a colon)
#: before the question; "A and B: what does each pay ...?": named sides as the question's label.
_DASHED_LIST = re.compile(rf"(?:^\s*|(?:\s[—–-]|:)\s+)({_LISTED_NAME}(?:,\s*{_LISTED_NAME})*,?\s+(?:and|or)\s+{_LISTED_NAME})"
                          r"(?:\s+[—–-]|:)\s+(?=(?i:which|who|what|whose|how)\b)")
#: "which of A, B and C ...", "my three accounts (A, B, C): which ...": the named choices a question ranks.
_CHOICES = re.compile(rf"\b(?i:which|who)\s+(?i:one\s+)?(?i:of)\s+(?i:the\s+|our\s+)?({_LISTED_NAME}(?:,\s*{_LISTED_NAME})*,?\s+"
                      rf"(?i:and|or)\s+(?i:the\s+|our\s+)?{_LISTED_NAME})|\(({_LISTED_NAME}(?:,\s*{_LISTED_NAME})+(?:,?\s+(?i:and|or)\s+"
                      rf"{_LISTED_NAME})?)\)")
#: "... with the one in B", "... and that of B": the second side named by where its measure is held.
_THE_ONE_IN = re.compile(r"^(?:(?:(?:the\s+)?ones?|that|those)\s+)?(?:in|of|for|under)\s+(?:the\s+|our\s+)?(.+)$", re.I)
#: "the VX-9 price we're seeing in quotes": after a name, a clause whose subject is a pronoun says where the side was
#: met, not which side it is ("the extra discount we approved for tenders" is named by its clause).
_NAME_OR_CODE = re.compile(r"(?<![.?!]\s)\b[A-Z][\w&-]+|\b[A-Za-z]+-?\d[\w-]*")
_PRONOUN_LEAD = r"\s+(?:that\s+|which\s+)?(?:we|they|you|I)(?:['’](?:re|ve|d|ll)\b|\s+(?=[a-z]))"
_PRONOUN_CLAUSE = re.compile(rf"(?<=\w){_PRONOUN_LEAD}\s*.*$")


def _named_side(phrase: str) -> str:
    """A compared side without a pronoun clause after its name ("the VX-9 price we're seeing in quotes" -> "the VX-9
    price"); a side without a name keeps its clause, which is what names it."""
    bare = _PRONOUN_CLAUSE.sub("", phrase)
    return bare if _NAME_OR_CODE.search(bare) else phrase


#: "compare with B on X and Y", "compared in terms of X and Y", "what changed on X and Y", "stacks up on X + Y": the
#: measures the sides are compared on.
#: ("... compare on stated accuracy and on the largest pipe size they support?": the second may be longer)
_COMPARED_ON = re.compile(r"\b(?:compar|chang|differ|stack\w*\s+up|var(?:y|ie))\w*\b[^?;]*?\b(?:on|in terms of)\s+"
                          r"(?:the\s+|our\s+|their\s+)?([a-z][\w-]*(?:\s+[a-z][\w-]*)?)"
                          r"\s+(?:and|\+|&)\s+(?:on\s+)?(?:the\s+|our\s+|their\s+)?([a-z][\w-]*(?:\s+[a-z][\w-]*){0,4}?)"
                          r"(?:\s+(?:they|it|each|we)\s+\w+)?\s*(?:[?.;,]|$)", re.I)


#: "per diem and hotel cap now vs the 2023 rules", "how do the deposit and the late fee compare with 2022": two
#: measures named together just before the periods are set against each other.
_MEASURE_WORDS = r"[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}?"
_PAIRED_MEASURES = re.compile(rf"(?:^|[-–—:]\s+|\b(?:do|does|did|are|were|is|was|have|has)\s+)(?:the\s+|our\s+)?"
                              r"(?:(?:(?:Q[1-4]|H[12])\s+)?(?:FY\s*)?(?:19|20)\d{2}\s+)?"  # ("did Q3 2024 revenue and ...")
                              rf"({_MEASURE_WORDS})\s+(?:and|\+|&)\s+(?:the\s+|our\s+)?({_MEASURE_WORDS})\s+"
                              r"(?:(?:now|today|currently)\s+)?(?:vs\.?|versus|compare\w*|chang\w*|differ\w*|stack)\b")


#: "how does the fee agreed with A compare with those agreed with B and C", "... charged to A compare with that
#: charged to B": the measure held by one side, then the same measure of the others.
_COMPARE_WITH_THOSE = re.compile(r"\b(?:with|for|to|by|in|under|from)\s+(?:the\s+)?(?P<a>[A-Z][^,;?]*?)\s+compare\s+"
                                 r"(?:with|to|against)\s+(?:that|those|the ones?)\s+(?:[a-z]+ed\s+)?"
                                 r"(?:with|for|to|by|in|under|from)\s+(?:the\s+)?(?P<rest>[A-Z][^;?]*?)"
                                 r"(?=\s*(?:[?;]|,\s*(?:and\s+)?(?:by|how|what|which|who|when|is|are|in)\b|$))")
#: "how do A and B compare", "how does A and B's X compare": the two sides before the verb.
_HOW_DO_COMPARE = re.compile(r"\bhow\s+(?:do|does|did)\s+(?:the\s+|our\s+)?([^,;?]+?)\s+and\s+(?:the\s+|our\s+)?([^,;?]+?)"
                             r"\s+compare\b", re.I)
#: "compare in terms of severity, duration and the number of devices affected": three or more measures listed.
_COMPARED_ON_LIST = re.compile(r"\b(?:compar|chang|differ|stack\w*\s+up|var(?:y|ie))\w*\b[^?;]*?\b(?:on|in terms of)\s+((?:[^,;?]+,\s*)+"
                               r"(?:and\s+)?[^,;?]+?)\s*(?:[?.;]|$)", re.I)


def _joined(clause: str) -> list[str]:
    """The two measures of a label that joins them and asks nothing: "merit pool + market adjustment"."""
    joins = r"\s*\+\s*|\s+&\s+"  # (not the "&" inside "R&D")
    if _ASKING.search(clause) or not re.search(joins, clause):  # ("give both shares and the gap": no label)
        return []
    pair = [key_phrase(p) for p in re.split(joins, clause.strip(" -–—"))]
    return pair if len(pair) == 2 and all(0 < len(p.split()) <= 4 for p in pair) else []


def _versus(clause: str) -> list[str]:
    """The two sides of "A vs B", "between A and B", "compare A with B" in the piece of the clause that holds them."""
    held = _COMPARE_WITH_THOSE.search(clause)
    if held:  # "how does the fee agreed with A compare with those agreed with B and C?": A, B and C
        others = [key_phrase(x) for x in re.split(r",\s*(?:and\s+)?|\s+and\s+", held["rest"])]
        if all(others) and key_phrase(held["a"]):
            return [key_phrase(held["a"]), *others]
    how = _HOW_DO_COMPARE.search(clause)
    if how and key_phrase(how[1]) and key_phrase(how[2]):  # "how do the outage of August and the incident of
        return [key_phrase(how[1]), key_phrase(how[2])]  # November compare in terms of ...?"
    pieces = re.split(r"\s[-–—]\s|:\s|(?<![Vv]s)(?<!\.[a-z])\.\s+(?=[A-Z]|(?:which|who|what|how|when|where|is|are|does|do|"
                      r"did|can)\b)|,\s*(?=which|who|what|how)|\s(?=(?:which|who|what|how)\s+(?:does|do|did|is|are|was|"
                      r"were|has|have)\b)", clause, flags=re.I)  # "A vs B - which", "a versus b what does each pay"
    clause = next((p for p in pieces if re.search(r"\b(?:vs\.?|versus|between|compare|reconcile|contrast)\b", p, re.I)),
                  pieces[0])
    # ("compare the severity and scale of A with B": "with" sets the sides apart before "and" does)
    m = re.search(r"\b(?:compare(?!\s+(?:on|in terms of)\b)|reconcile|contrast)\s+(?:the\s+|our\s+)?(.+?)\s+"
                  r"(?:with|to|against)\s+(?:the\s+|our\s+)?(.+?)$()()", clause, re.I) if re.search(  # (two empty
        # groups, so that groups 3 and 4 mean "A vs B" in both forms)
        r"\band\b.+\b(?:with|against)\b", clause, re.I) else None
    m = m or re.search(r"\b(?:between|compare(?!\s+(?:on|in terms of)\b)|reconcile|contrast)\s+(?:the\s+|our\s+)?(.+?)\s+"
                       r"(?:and|with|to|against)\s+"
                       r"(?:the\s+|our\s+)?(.+?)$|^(.+?)\s+(?:vs\.?|versus)\s+(.+?)$", clause, re.I)
    if not m:
        return []
    a, b = (m[1], m[2]) if m[1] else (m[3], m[4])
    a = re.split(r",\s+", a)[-1] if m[3] else a  # "Termination for convenience, A vs B": the topic, then the sides
    measured = re.match(r"(?:[a-z][\w-]*\s+)*?[a-z][\w-]*\s+and\s+(?:the\s+)?[a-z][\w-]*\s+of\s+(?:the\s+|our\s+)?(.+)$", a) \
        if m[1] and not m[3] else None
    a = measured[1] if measured else a  # "compare the severity and scale of A with B": A is the side
    more = re.split(r"\s+(?:vs\.?|versus)\s+", b, flags=re.I) if m[3] else [b]
    if len(more) > 1 and all(key_phrase(side) for side in more):  # "A vs B vs C": three sides
        return [key_phrase(a), *(key_phrase(side) for side in more)]
    article = list(re.finditer(r"\b(?:a|an)\s+", a, re.I)) if m[3] and re.match(r"(?:a|an)\s", b, re.I) else []
    if article:  # "... does the COO need to sign off an expense claim vs a purchase request?": two things of a kind,
        a, b = a[article[-1].end():], re.sub(r"^(?:a|an)\s+", "", b, flags=re.I)  # each with its article
    # "..., in dollars": how the answer is written, not the side
    b = re.split(r",\s+(?=(?:in|as|at|for|per|by|please)\b)", b, maxsplit=1, flags=re.I)[0]
    one = _THE_ONE_IN.match(b)  # "the fee in the A agreement with the one in the B agreement", "the penalty under A
    # vs under B": A and B are compared
    held = re.search(r"\s(?:in|of|for|under)\s+(?:the\s+|our\s+)?(.+)$", a) if one else re.search(
        r"\s(?:in|under)\s+(?:the\s+|our\s+)?((?-i:[A-Z])[^,]*)$", a, re.I)  # "the price in the Harwick CSA vs the Tarn
    if held and (one or not find_periods(held[1])):  # agreement": the price is measured, the agreements compared
        a, b = held[1], one[1] if one else b
    if bool(_NOW_WORD.search(a)) != bool(_NOW_WORD.search(b)):  # "the cap now vs what it was under the 2023 rules"
        dated = find_periods(b if _NOW_WORD.search(a) else a)
        if len(dated) == 1:
            return ["now", dated[0].text] if _NOW_WORD.search(a) else [dated[0].text, "now"]
    return [key_phrase(_named_side(a)), key_phrase(_named_side(b))]


#: Two names that share one head noun: "the Tarn and Harwick contracts", "the Tarn agreement and the Harwick agreement".
_SHARED_HEAD = re.compile(rf"(?<=\s)(?P<a>{_LISTED_NAME})\s+(?:(?P<own>[a-z]+)\s+)?and\s+(?:the\s+|our\s+|their\s+)?"
                          rf"(?P<b>{_LISTED_NAME})\s+(?P<head>[a-z]+s?)\b")


_THAN = re.compile(r"\b(?:does|do|did|is|are|was|were|has|have|had|will|would|can|gets?|got)\s+(?:the\s+|our\s+|an?\s+)?"
                   r"([\w-]+(?:\s+[\w-]+){0,3}?)\s+(?:([\w-]+)\s+)?(?:than|compared? (?:with|to)|versus|vs\.?)\s+"
                   r"(?:the\s+|our\s+|an?\s+)?([\w\s-]+?)\s*[?.]?$", re.I)


def _qualifiers(text: str, sides: list[str]) -> tuple[str, ...]:
    """For each compared period, the version word written next to it ("the 2024 budgeted margin", "the actual
    Q3 2024 margin"); empty unless the sides differ in it."""
    normal = normalise_periods(text)
    periods = {side: find_periods(side)[:1] for side in sides}
    mentions = [(start, period) for start, _, period in period_mentions(normal)]
    found = dict.fromkeys(sides, "")
    for m in re.finditer(r"[A-Za-z]+", normal):
        if m[0].lower() not in VERSION_WORDS or not mentions:
            continue
        _, nearest = min(mentions, key=lambda mention: abs(mention[0] - m.start()))
        for side, (period,) in ((s, p) for s, p in periods.items() if p):
            if (period.kind, period.number) == (nearest.kind, nearest.number) and nearest.year in (None, period.year):
                found[side] = found[side] or m[0].lower()
    if set(found.values()) <= {"", "actual", "actuals", "reported"}:  # "income reported for Q3 2023 and for Q3
        return ()  # 2024": what happened is what a side without a version word means too
    return tuple(found.values()) if len(set(found.values())) > 1 else ()


#: Words that end a measure's name: "the per diem | change from ...".
_MEASURE_END = INCREASE_WORDS | DECREASE_WORDS | word_set("change changed changes changing differ differed compare "
                                                          "compared from to in for of at on under by during between "
                                                          "since was were is are vs versus")


#: Measures that name no thing of their own: "the rate", "the figure".
_BARE_MEASURES = frozenset({"rate", "figure", "number", "amount", "value", "level", "total"})
#: An ask about an earlier ask's answer: "what share is that?", "how far did one outpace the other?" ("each" and
#: "both" are the sides).
#: "Does that reconcile to ...?", "is that more than ...?": a check of the answer just asked for.
_CHECKS_ANSWER = re.compile(r"\b(?:is|was|are|were|does|do|did|can|will|would) (?:that|this)\b", re.I)
_ANSWER_REFERENCE = re.compile(rf"\b(?:its|their|it|them|they|the other)\b|{_CHECKS_ANSWER.pattern}", re.I)
#: "... in $M and as a fraction of March": how the same figure is written, not an ask of its own ("by how many" is).
_SAME_FIGURE_FORM = re.compile(r"(?:as|in|by(?!\s+(?:how|what)))\b", re.I)
#: Where one ask of several may end: "..., and how many points ...", "growth in % and margin in points".
_ASK_SPLIT = re.compile(r"\s*;\s*|,?\s+and\s+", re.I)


#: Words of an ask that name where the figures are or which way they run, not a measure: "from the monthly sales
#: reports", "from one quarter to the next".
_NOT_A_MEASURE = re.compile(r"\bfrom (?:the |our )?(?:\w+ ){0,2}(?:reports?|minutes|documents?|data|figures|system)\b|"
                            r"\bfrom one(?: \w+)? to the (?:next|other)\b", re.I)


#: The verbs that make a sentence a statement rather than a label ("A vs B." states nothing).
_FINITE_VERB = re.compile(r"\b(?:is|are|was|were|has|have|had|did|does|do|will|would|can|could|got|gets|went|fell|rose|"
                          r"grew|dropped|said|says)\b", re.I)


#: "... also Y same two months": another measure of the sides already named.
_SAME_SIDES = re.compile(r"\bsame\s+(?:two\s+|three\s+|four\s+)?(?:months?|quarters?|years?|periods?|dates?|days?|weeks?)\b",
                         re.I)
#: "Comparing the second and third quarters of 2024, ...": the sides named first, as a label to what is asked.
_SIDES_FIRST = re.compile(r"^(?:comparing|compared|looking at|taking|between)\b[^,;?]*,\s*", re.I)
#: "each driver", "every factor": the things a change is split into (not "each quarter", "each of them").
_EACH_THING = re.compile(r"\b(?:each|every)\s+(?!(?:of|one|side|other|month|quarter|year|week|half|period)s?\b)"
                         r"([a-z][\w-]*)", re.I)


#: "the pieces of the bridge", "its components": the parts a change is split into.
_PARTS_OF_CHANGE = re.compile(r"\b(?:pieces|components|parts|elements|breakdown)\b", re.I)


def _breakdown(ask: str, sides: list[str]) -> bool:
    """Whether an ask splits the change into things the sides do not name ("why did X rise, and how many points did
    each driver contribute?", "what were the pieces of the bridge?"): with a cause asked, it asks for the parts of
    the change, not a measure of each side."""
    if _PARTS_OF_CHANGE.search(ask):  # "what were the pieces of the bridge?"
        return True
    thing = _EACH_THING.search(ask)
    return bool(thing) and not any(thing[1].lower().rstrip("s") in side.lower() for side in sides) \
        and not find_periods(thing[0])


def _asked_measures(text: str, sides: list[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Measures asked one per clause over the same sides, and each one's own operation when they differ: "what was
    revenue growth in %, and how many points did the margin move?" asks a percent change of revenue and a point
    change of the margin; "A vs B: what is the accuracy and what is the top pipe size?" asks two measures of each.
    Empty unless the clauses name different measures and either differ in how their numbers combine or each asks a
    question of its own; no later ask may be about an earlier one's answer ("..., and what share of the year is
    that?", "how far did one outpace the other?") or say how the same figure is written ("the drop in $M and as a
    fraction of March"), nor offer a choice of its own ("did line 4 or the plant improve more"). A clause that only
    names the sides ("A vs B") asks nothing."""
    label = _SIDES_FIRST.match(text)
    text = text[label.end():] if label and find_periods(label[0]) and not _ASKING.search(label[0]) else text
    asks: list[str] = []
    split = _ASK_SPLIT.split(text.strip(" ?"))
    for i in range(len(split) - 1, 0, -1):  # "how do A and B compare on X, and ...": the sides' "and" splits no ask
        if any(split[i - 1].endswith(side) for side in sides) and any(split[i].startswith(side) for side in sides):
            split[i - 1:i + 1] = [f"{split[i - 1]} and {split[i]}"]
    causal = bool(_CAUSE.search(text) or _ACCOUNTS_FOR_CHANGE.search(text))
    for i, a in enumerate(split):
        ask = _NOT_A_MEASURE.sub(" ", re.sub(r"^(?:and|also|plus)\s+", "", a.strip(" ,"), flags=re.I))
        if asks and i < len(split) - 1 and _SAME_FIGURE_FORM.match(ask) and not _ASKING.search(ask):  # "... rise
            asks[-1] = f"{asks[-1]} and {ask}"  # in dollars and in percentage terms, and ...": how that ask's figure
            # is written (written last, it is how every figure is: "A and B changed ..., in dollars and in percent")
        elif ask.strip(" ,") and not (causal and _breakdown(ask, sides)):  # (each driver's share is the reasons)
            asks.append(ask)
    # ("... and the average per month?": "per-month" is how the same measure is counted, not a measure; "per
    # gateway" says what it is the price of)
    found = [(" ".join(w for w in _subject(ask, sides).split() if not re.fullmatch(
              r"per-(?:day|week|month|quarter|year|annum|hour)", w.lower())),
              _operation(ask, sides, False), ask) for ask in asks]
    found = [f for f in found if f[0] or not _COMPARISON.search(f[2])]  # ("A vs B: what is ...": a label)
    # "the 2023 policy vs the 2024 one: the X, and what Y?": the sides (things of one kind) set apart as a label, then
    # the measures listed
    labelled = len(found) > 2 and bool(re.search(r"\b(?:vs\.?|versus)\s+(?:the\s+)?\S+\s+ones?$", found[0][2], re.I))
    found = found[1:] if labelled else found
    # "..., and how many points higher is the rate?": a bare "rate" is the rate of what the first ask measures
    measures = tuple(f"{found[0][0].split()[0]} {measure}" if i and measure in _BARE_MEASURES else measure
                     for i, (measure, _, _) in enumerate(found))
    operations = tuple(operation for _, operation, _ in found)
    parallel = all(_ASKING.search(ask) or labelled and i == 0 for i, (_, _, ask) in enumerate(found)) or any(  # "what
        _OF_EACH.search(ask) or _SAME_SIDES.search(ask) for _, _, ask in found[1:])  # is X, and what is Y", "and the Y
    # - how much?", "X in A vs B, and the Y in each", "X sept vs dec? also Y same two months"
    if len(found) < 2 or not all(measures) or len(set(measures)) < len(measures) or (
            len(set(operations)) < 2 and not parallel):
        return (), ()
    if any(set(terms(m)) <= set(terms(n)) and _WHICH_SIDE.search(ask)
           for i, (m, (_, _, ask)) in enumerate(zip(measures, found, strict=True)) for n in measures[:i]):
        return (), ()  # "what does each pay per sack, and which one pays more?": the same measure, compared
    if any(_ANSWER_REFERENCE.search(_BACK_TO_SIDES.sub(" ", ask)) or _SAME_FIGURE_FORM.match(ask)  # ("each of them"
           for _, _, ask in found[1:]) or any(  # points back to the sides, not to an answer)
            len(_alternatives(ask)) >= 2 for _, _, ask in found):
        return (), ()
    return measures, operations if len(set(operations)) > 1 else ()


def _own_operations(measures: tuple[str, ...], text: str) -> tuple[str, ...]:
    """Each measure's own operation, from a later clause that names it alone ("Give the revenue delta in $M and as a
    %, and the margin delta in points"): a point change, a percent change, else its difference; empty unless they
    differ."""
    heads = [terms(m)[-1] for m in measures if terms(m)]
    if len(heads) < len(measures):
        return ()
    clauses = re.split(r"[;?.:]\s+|,\s+|[;?]$", text)
    operations = []
    for head in heads:
        own = [c for c in clauses if head in terms(c) and not any(h in terms(c) for h in heads if h != head)]
        operations.append(next((name for c in own for name in ("percentage-point change", "percent change")
                                if OPERATIONS[name].search(c)), "difference"))
    return tuple(operations) if len(set(operations)) > 1 else ()


#: "compare the 2025 budget to the 2024 one - revenue target, gross margin and opex.": the measures listed as a label.
_MEASURE_LIST = re.compile(r"(?:\s[-–—]|:)\s+((?:[a-z][\w-]*\s+){0,3}[a-z][\w-]*(?:,\s*(?:[a-z][\w-]*\s+){0,3}[a-z][\w-]*)*,?"
                           r"\s+and\s+(?:[a-z][\w-]*\s+){0,3}?[a-z][\w-]*)\s*(?:[.?;]|$|(?=\s*(?:what|how|which|who|when|where|why)\b)|"
                           r"(?=,\s*[^,?;]+?\s(?:vs\.?|versus)\s))",  # ("- accuracy and max pipe size, A vs B?")
                           re.I)


_HOW_COMBINED = re.compile(r"\beach\b|^(?:the\s+)?(?:total|delta|difference|change|sum|average|gap)\b", re.I)


def _listed_measures(text: str, later: str = "") -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The measures a comparison lists after a dash or colon, each compared by its difference, or in percent where a
    later ask (after the list, or ``later``) puts a "%" to it ("... whats the % increase in the revenue target?");
    else nothing."""
    m = _MEASURE_LIST.search(text)
    raw = re.split(r",\s*(?:and\s+)?|\s+and\s+", m[1]) if m else []
    items = [key_phrase(i) for i in raw if key_phrase(i)]
    cues = CUE_WORDS | AGGREGATE_WORDS | INCREASE_WORDS | DECREASE_WORDS
    # ("- total for each quarter and the delta" lists how to combine the figures, not measures)
    combining = any(not key_phrase(i, cues) or _HOW_COMBINED.search(i) for i in raw)
    if not 2 <= len(items) <= 4 or combining or len(set(items)) < len(items) or any(find_periods(i) for i in items):
        return (), ()
    later = f"{text[m.end():]} {later}"
    percent = [i for i in items if re.search(rf"%[^.?;]*\b{re.escape(i.split()[-1])}|\b{re.escape(i.split()[-1])}\b[^.?;]*%",
                                             later, re.I)]
    return tuple(items), tuple("percent change" if i in percent else "difference" for i in items) if percent else ()


#: "How did the market-adjustment component of the raise, and the number of employees it targets, differ ...?": two
#: measures, each with what it is of, set apart by commas.
_TWO_MEASURES_APART = re.compile(r"\bhow\s+(?:did|do|does|has|have)\s+(?:the|our)\s+([\w-]+(?:\s+[\w-]+){0,2}?)(?:\s+of\s+[^,]+)?,"
                                 r"\s+and\s+(?:the|our)\s+([\w-]+(?:\s+of)?(?:\s+[\w-]+){0,2}?)(?:\s+(?:it|they|that|which)\b[^,]*)?,"
                                 r"\s+(?:differ|change|compare|move|develop)", re.I)


def _measures(main: str) -> tuple[str, ...]:
    """Two measures named side by side with their articles: "the hotel cap and the per diem change ...", "how much did
    overall satisfaction and the price score change ..."."""
    apart = _TWO_MEASURES_APART.search(main)
    if apart:
        return key_phrase(apart[1]), key_phrase(apart[2])
    m = re.search(r"\b(?:the|our|(?:did|do|does)(?: the| our)?) ((?:[\w-]+ ){0,2}?[\w-]+) and (?:the|our) ((?:[\w-]+ ?){1,3})",
                  main, re.I)
    if not m:
        return ()
    second = []
    for word in m[2].split():
        if word.lower() in _MEASURE_END:
            break
        second.append(word)
    found = (m[1], " ".join(second))
    if not all(found) or any(find_periods(f) or set(f.lower().split()) & _MEASURE_END for f in found):
        return ()
    return found


#: "from $5,150 to $5,459": a change stated as its two figures.
FROM_TO = re.compile(rf"\bfrom\s+({NUMBER.pattern})(?:\s+([A-Za-z]{{1,3}}))?\s+to\s+(?:about\s+|around\s+|roughly\s+|some\s+)?"
                     rf"({NUMBER.pattern})(?![\d,.]*\d)(?!\s*(?i:{'|'.join(MONTHS)}|sept|{'|'.join(m[:3] for m in MONTHS)})\b)"
                     r"(?:\s+(?P<unit>[A-Za-z]{1,3})\b)?")  # "from 38 MB to about 6 MB": one unit (not "from 11 to 22 Nov")


def from_to(text: str) -> tuple[str, str] | None:
    """The new and the old value of a change written "from X to Y" in one unit ("from 38 MB to about 6 MB")."""
    m = FROM_TO.search(text)
    if not m or unit_of(m[1]) != unit_of(m[3]) or (m[2] or m["unit"] or "").lower() != (m["unit"] or m[2] or "").lower():
        return None
    return m[3], m[1]


def _direction(text: str) -> str:
    stated = from_to(text)  # "up from 91% to 95%"
    if stated and number_value(stated[1]) != number_value(stated[0]):
        return "increase" if number_value(stated[0]) > number_value(stated[1]) else "decline"
    moved = re.search(r"\b(?:push|pushed|pushes|went|gone|go|goes|move|moved|shot|drove|driven|pull|pulled|brought|"
                      r"dragged|drag)\s+(?:[\w-]+\s+){0,3}?(up|down)\b", text, re.I)  # "what pushed margin up"
    if moved:
        return "increase" if moved[1].lower() == "up" else "decline"
    lowered = set(re.findall(r"[a-z]+", text.lower()))
    if lowered & DECREASE_WORDS - {"lower", "down"}:
        return "decline"
    if lowered & INCREASE_WORDS - {"higher", "up"}:
        return "increase"
    return ""


#: Words that ask for the upper or the lower end of what a range states ("-40 °C to +120 °C", "DN25 to DN1200").
_UPPER_END = re.compile(r"\b(?:max(?:imum)?|top|highest|upper|largest|biggest|hott?er|hottest|warmer|warmest|"
                        r"bigger|larger|higher|longest)\b", re.I)
_LOWER_END = re.compile(r"\b(?:min(?:imum)?|lowest|bottom|smallest|coldest|colder|cooler|coolest|smaller)\b", re.I)


#: A side that starts with an end of a range and ends with a code: "maximum pipe size lx-200".
_MEASURE_LED = re.compile(rf"^((?:{_UPPER_END.pattern}|{_LOWER_END.pattern})(?:\s+[a-z]+)*)\s+(\S*\d\S*)$", re.I)


def _extreme(text: str) -> str:
    upper, lower = _UPPER_END.search(text), _LOWER_END.search(text)
    return "max" if upper and not lower else "min" if lower and not upper else ""


_RANK = re.compile(r"\brank(?:ed|ing)?\b|\bwhich (?:was|is|were|are) (?:the )?(?:best|worst)\b", re.I)
_RANKED_BY = re.compile(r"\brank\w*\s+[^?]+?\s+by\s+((?:[\w-]+\s+){0,3}?[\w-]+)(?=\s*(?:[—–,:;?.]|\s-\s|$))", re.I)
_ASKS_CHOICE = re.compile(rf"\b(?:which|who|whether)\b|\b(?:{_COMPARATIVES})\b", re.I)
_WHICH_SIDE = re.compile(rf"\b(?:which|who|whether)\b.*\b(?:{_COMPARATIVES})\b", re.I)


def _operation(text: str, sides: list[str], total: bool) -> str:
    """How the found numbers combine: the first operation the grammar names, else the closest in meaning. An
    explicit ask for the gap ("how much higher") is a difference even when a measure reads "per night"."""
    if len(sides) == 2 and _CHANGE_AS_SHARE.search(text):  # "the drop as a fraction of the September level"
        return "percent change"
    if len(sides) == 2 and OPERATIONS["percentage-point change"].search(text):  # "the share of revenue in 2023 vs
        return "percentage-point change"  # 2024, in points": the share is the measure, the points the operation
    if len(sides) > 2 and SPREAD.search(text):  # "which pays the least per gateway and which the most, and
        return "max"  # how big is the spread?": the largest against the smallest
    if not sides and _PORTION.search(text):
        return "portion"
    if not sides and _AGAINST_PLAN.search(text):  # "... and how does that compare with its plan?": the gap
        return "difference"
    for name, pattern in OPERATIONS.items():
        if name in ("ratio", "sum") and _DIFFERENCE.search(text):  # "which deal is bigger in total value, by how much"
            return "difference"
        if pattern.search(text) and (name not in ("max", "min") or len(sides) >= 2):
            if name in ("max", "min") and (_AMOUNT.search(text) or len(sides) == 2):
                return "difference"  # "which is larger, and by how much": the gap answers both
            return name
    if len(sides) >= 2 and _ASKS_WHEN.search(text) and not (asks_number(text) or _AMOUNT.search(text) or total):
        return ""  # "A vs B - when does each contract's term end?": each side's date, nothing to work out
    if len(sides) >= 2 or total:
        return "sum" if total else "difference"
    if not asks_number(text):
        return ""
    index, _ = closest(text, list(OPERATION_MEANINGS.values()), minimum=0.55)
    return list(OPERATION_MEANINGS)[index] if index >= 0 else ""


#: The largest against the smallest: "how big is the spread", "than the lowest of the three", "between the top and the
#: bottom", "the gap between the highest and the lowest", "is the lowest of the three below the highest".
SPREAD = re.compile(r"\bthan the (?:lowest|smallest|cheapest|least|bottom|worst|slowest|weakest)\b|\bspread\b|"
                    r"\b(?:lowest|smallest|cheapest)\b[^?;]*\b(?:below|under)\s+the\s+(?:highest|largest|dearest|top)\b|"
                    r"\b(?:top|highest|best|biggest|largest) and (?:the )?(?:bottom|lowest|worst|smallest)\b|"
                    r"\b(?:gap|difference)\s+between\s+the\s+(?:highest|lowest|top|bottom|cheapest|dearest|most|least)\b",
                    re.I)
#: A question about a date: "when does ...", "by what date", "until when".
_ASKS_WHEN = re.compile(r"\b(?:when|(?:by|on|until|from)\s+(?:what|which)\s+date|what\s+date)\b", re.I)


def asks_number(text: str) -> bool:
    """Whether the question asks for a figure ("how much", "how many", "what was the total ...")."""
    return bool(re.search(r"\bhow (?:much|many|big|large|high|low)\b|\bwhat (?:was|is|were|are) the (?:\w+ )?"
                          r"(?:total|number|amount|value|cost|price|rate|figure|share|average)\b", text, re.I))


def _answer_type(q: Question) -> str:
    """What a correct answer must contain, in the order it should say it."""
    kinds = []
    if q.reviewed:
        kinds.append("review of clauses")
    if q.orders:
        kinds.append("order status")
    if q.comparison:
        kinds.append("comparison")
    if q.operation or asks_number(q.text):
        kinds.append("figure")
    if q.cause:
        kinds.append("reasons")
    return " + ".join(kinds) or ("name" if re.match(r"\s*(?:who|which|where)\b", q.text, re.I) else "fact")


#: Months written one after another ("October, November and December", "Oct, Nov & Dec"): one group.
_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
_MONTH_RUN = re.compile(rf"\b{_MONTH}(?:(?:\s*,\s*(?:and\s+)?|\s+and\s+|\s*&\s*){_MONTH})+", re.I)


def _quarters_spelled_out(text: str, periods: list[Period]) -> list[str]:
    """The quarters a question compares by writing out their months ("Q4 (Oct-Dec) vs Q3 (Jul-Sep)", "add up Oct,
    Nov and Dec and compare with July-September"): each group of a quarter's three months is that quarter, empty
    unless there are two such groups or more."""
    years = {p.number: p.year for p in periods if p.kind == "month"}
    quarters = []
    for run in _MONTH_RUN.finditer(text):
        months = sorted(MONTHS.index(next(n for n in MONTHS if n.startswith(w[:3].lower()))) + 1
                        for w in re.findall(_MONTH, run[0], re.I))
        if len(months) != 3 or months[0] % 3 != 1 or months[2] != months[0] + 2:
            return []
        year = years.get(months[0])
        quarters.append(f"Q{(months[0] - 1) // 3 + 1}" + (f" {year}" if year else ""))
    return quarters if len(set(quarters)) >= 2 else []


def _different_things(sides: list[str]) -> bool:
    """Whether each side names its own period and a thing of its own, sharing no word with the other's thing."""
    # ("Q2 2019 (sum of the months)" is a period, summed: its other words name no thing)
    words = [set(terms(key_phrase(side, CUE_WORDS | AGGREGATE_WORDS))) - {t for p in find_periods(side) for t in terms(p.text)}
             - set(terms("month months quarter quarters year years")) for side in sides]
    return all(len(find_periods(side)) == 1 for side in sides) and all(len(w) >= 2 for w in words) \
        and not words[0] & words[1]


def _sides(main: str, periods: list[Period], text: str = "") -> list[str]:
    """The compared items: several periods, or several names in a comparison clause."""
    dated = [p for p in periods if p.kind != "year"]
    spelled_out = [p for p in dated if p.kind == "month" and any(q.kind == "quarter" for q in dated)]
    dated = [p for p in dated if not (p.kind == "quarter" and sum(  # "Q4 (Oct-Dec)": the months are the sides
        m.year == p.year and (m.number - 1) // 3 + 1 == p.number for m in spelled_out) == 3)]
    things = _versus(main) if len(dated) == 2 else []
    if len(things) == 2 and _different_things(things):  # "the August 2024 outage with the November 2024 firmware
        return things  # incident": two things, each dated, not one thing in two periods
    if len(dated) >= 2:
        return [p.text for p in dated]
    shared = _SHARED_HEAD.search(main) if _TOTAL.search(main) or _EACH_NAME.search(main) else None
    if shared and (shared["head"] == shared["own"] or not shared["own"]) and not any(
            find_periods(shared[k]) for k in ("a", "b")):  # "the A and B contracts ... combined", "what would the
        return [shared["a"], shared["b"]]  # A agreement and the B agreement each generate": one measure, two parties
    # a share compares a part with its whole; "how much did X go up when 2024's rules replaced 2023's" two years
    if not (_COMPARISON.search(main) or OPERATIONS["share"].search(main)
            or (_AMOUNT.search(main) and len(periods) >= 2)):
        offered = _alternatives(main)  # "which bakery sold more, North Street or Harbor Lane?"
        if len(offered) < 2 and len(periods) == 2 and _WHICH_SIDE.search(main) and _offered_periods(main, periods):
            return [p.text for p in periods]  # "which policy pays more, the 2023 or the 2024 one?"
        return offered if len(offered) >= 2 and (_ASKS_CHOICE.search(main)) else []
    if len(periods) >= 2:
        return [p.text for p in periods]
    named = _named_sides(main)
    replaced = re.search(r"\breplac\w*\b.*\b(?:old|previous|former)\b", text or main, re.I)  # "when the 2024 policy
    if not named and len(periods) == 1 and _NOW.search(text or main) and not replaced:  # replaced the old one": 2024
        return ["now", periods[0].text]  # is now; "how much now, compared to the 2023 rule?" compares two
    if len(periods) == 1 and _NEW_AND_OLD.search(text or main) and not replaced and (  # "the cap in the new policy vs
            not named or sum(bool(find_periods(side)) for side in named) == 1 and not any(  # the old 2023 one": now vs
                re.search(r"\b(?:new|newer|latest|current|now)\b", side, re.I) for side in named)):  # 2023
        return ["now", periods[0].text]
    if len(periods) == 1 and not named and not replaced and _NEW_AGAINST_DATED.search(text or main):
        return ["now", periods[0].text]  # "how much larger is the new allowance than the one in the 2023 policy?"
    return named


#: "What does A pay for X? Is that more or less than B pays, and by how much?": a figure asked, then held against
#: another's ("... and is that more than B?").
_THAT_THAN = re.compile(rf"^(?P<first>.+?)(?:\?\s*|,?\s+and\s+)(?:is|was|are|were)\s+(?:that|this|it)\s+(?:\w+\s+)?"
                        rf"(?:{_COMPARATIVES})(?:\s+or\s+(?:{_COMPARATIVES}))?\s+than\s+(?:what\s+|that\s+of\s+)?"
                        rf"(?P<other>[^,?.;]+?)(?:\s+(?:pays|charges|gets|has|gives|offers|does|receives|earns|costs|"
                        rf"sets|allows))?\s*(?:[,?.;]|$)", re.I)


#: Two things added up: "do annual leave and the public holidays add up to", "if you add my leave to the holidays",
#: "annual leave plus the local public holidays", "if leave and holidays are added together".
_ITEM = r"(?:the\s+|my\s+|our\s+|your\s+|their\s+)?(?P<{}>[a-z][\w'-]*(?:\s+[a-z][\w'-]*){{0,3}}?)"
_ADDED = (re.compile(rf"\b(?:do|does|would|will)\s+{_ITEM.format('a')}\s+and\s+{_ITEM.format('b')}\s+add\s+up\b", re.I),
          re.compile(rf"\badd(?:ing|ed)?\s+{_ITEM.format('a')}\s+(?:to|and)\s+{_ITEM.format('b')}(?:\s+together)?\s*(?:[?,.;]|$)",
                     re.I),
          re.compile(rf"\b(?:if|when)\s+{_ITEM.format('a')}\s+and\s+{_ITEM.format('b')}\s+are\s+(?:added|counted|put)\s+"
                     rf"together\b", re.I),
          re.compile(rf"(?:^|[—–:,-]\s*|\bcount\s+)(?:the\s+|my\s+|our\s+)?(?P<a>[a-z][\w'-]*(?:\s+[a-z][\w'-]*){{0,2}})\s+plus\s+"
                     rf"{_ITEM.format('b')}\s*(?:[?,.;]|$)", re.I))


def _added(text: str) -> list[str]:
    """The two things a question adds up ("annual leave plus the local public holidays"), else nothing."""
    for pattern in _ADDED:
        m = pattern.search(text)
        if m and key_phrase(m["a"]) and key_phrase(m["b"]):
            return [key_phrase(m["a"]), key_phrase(m["b"])]
    return []


#: "how did LX-200 bookings and Aurora Cloud bookings each move": two names, each with the same measure word.
_SHARED_MEASURE = re.compile(r"\b((?:[\w-]+\s+){0,2}?[\w-]+)\s+([a-z][\w-]+)\s+(?:and|vs\.?|versus)\s+(?:the\s+|our\s+)?"
                             r"((?:[\w-]+\s+){0,2}?[\w-]+)\s+\2\b", re.I)
#: "did Northern Europe and North America each book": two names, then "each".
_EACH_LISTED = re.compile(r"\b([A-Z][\w-]*(?:\s+[A-Z][\w-]*){0,3})\s+and\s+([A-Z][\w-]*(?:\s+[A-Z][\w-]*){0,3})\s+each\b")
#: "how much did each fall", "each move": every name's own change is asked.
_EACH_NAME = re.compile(r"\beach\b(?!\s+(?:month|quarter|year|week|day)\b)", re.I)


def _across(text: str, sides: list[str]) -> list[str]:
    """For "Between September and December, which region fell harder, Northern Europe or Continental Europe?" or
    "how did LX-200 bookings and Aurora Cloud bookings each move between September and December?": the names, each
    measured in both periods (the sides); else nothing."""
    if len(sides) != 2 or not all(find_periods(side) for side in sides):
        return []
    offered = _alternatives(text) if _ASKS_CHOICE.search(text) else []
    if len(offered) != 2 and (_EACH_NAME.search(text) or _ASKS_CHOICE.search(text)):
        shared = _SHARED_MEASURE.search(text)  # (the names before the measure word they share)
        listed = _EACH_LISTED.search(text)  # ("how much did Northern Europe and North America each book")
        offered = [key_phrase(shared[1]), key_phrase(shared[3])] if shared else [listed[1], listed[2]] if listed else []
    return offered if len(offered) == 2 and all(offered) and not any(find_periods(name) for name in offered) else []


def _measure_of(subject: str, names: list[str]) -> str:
    """The measure of a subject that also holds the compared names and the verbs around them ("took harder hit
    Northern Europe Continental booking" → "booking"): its words that name a money or percentage measure."""
    named = {t for name in names for t in terms(name)}
    kept = [w for w in subject.split() if not set(terms(w)) & named]
    measures = [w for w in kept if set(terms(w)) & (MONEY_MEASURES | PERCENT_MEASURES)]
    return " ".join(measures or kept)  # ("which part grew more, the merit pool or the market adjustment": the
    # names are the measures themselves, and nothing else is measured)


def _held_against(text: str) -> tuple[list[str], str] | None:
    """For "What does Halvorsen pay per gateway? Is that more or less than Brightwater pays?": the two named sides
    (the first name the first ask gives, and the one after "than") and the measure (the first ask without its
    name); ``None`` for any other form."""
    m = _THAT_THAN.match(text)
    if not m:
        return None
    first = m["first"]
    names = [n for n in _CLAUSE_NAME.findall(first) if not find_periods(n)]
    other = key_phrase(m["other"])
    if not names or not other or len(other.split()) > 4:
        return None
    measure = " ".join(w for w in key_phrase(first).split() if w not in names[0].split())
    return ([names[0], other], measure) if measure else None


#: The kinds of document a question may name as where to look.
_SOURCE_NOUN = (r"(?:manual|handbook|guide|policy|rule|regulation|directive|checklist|report|survey|study|article|"
                r"announcement|press release|review|faq|minutes|memo|paper|post-?mortem)")
#: "our LX-200 manual", "the new EMSB calibration rule", "the outside industry survey", "Legal's checklist".
_NAMED_SOURCE = re.compile(rf"(?:\b(the|our|their|its|[A-Z][\w-]*['’]s?)\s+|^)((?:(?!(?:in|of|on|at|by|to|for|from|with|our|the|their|its|and|or)\s)[\w/-]+\s+){{0,5}}?{_SOURCE_NOUN}s?)\b"
                           rf"(?!\s+{_SOURCE_NOUN})", re.I)


#: "the 2023 and the 2024 travel policy": two years' versions of one kind of document.
_VERSIONS_OF = re.compile(rf"\b(?:19|20)\d{{2}}\s+(?:and|vs\.?|versus|or|to)\s+(?:the\s+)?(?:19|20)\d{{2}}\s+"
                          rf"((?:[a-z][\w-]*\s+)?{_SOURCE_NOUN})(?:s|\b)", re.I)


def named_sources(text: str) -> tuple[tuple[str, bool], ...]:
    """The documents a question names as where to look, when it names two or more ("does the interval our manual
    recommends meet the new EMSB rule?"): each with whether it is our own ("our manual") or may be public."""
    found = {key_phrase(m[2]): (m[1] or "").lower() in ("our", "its") for m in _NAMED_SOURCE.finditer(text)}
    found = {phrase: ours for phrase, ours in found.items() if phrase and not any(  # ("the rule" after "the new
        phrase != other and f" {phrase.lower()} " in f" {other.lower()} " for other in found)}  # EMSB rule": the same)
    return tuple(found.items()) if len(found) >= 2 else ()


def _offered_periods(main: str, periods: list[Period]) -> bool:
    """Whether two periods are offered as a choice, with "or" between them: "the 2023 or the 2024 version"."""
    first, second = (main.find(p.text) for p in periods)
    return 0 <= first < second and bool(re.fullmatch(r"\W*(?:the\s+)?(?:\w+\s+){0,2}?or\s+(?:the\s+)?",
                                                      main[first + len(periods[0].text):second], re.I))


_COMPARES = re.compile(r"\b(?:compar\w*|than|vs\.?|versus|between|differ\w*)\b", re.I)


def _within(side: str, other: str) -> bool:
    """Whether the side is a month of the quarter the other side names ("September 2024" in "Q3 2024")."""
    inner, outer = find_periods(side), find_periods(other)
    return len(inner) == len(outer) == 1 and inner[0].kind == "month" and outer[0].kind == "quarter" \
        and inner[0].year == outer[0].year and (inner[0].number - 1) // 3 + 1 == outer[0].number


def _own_periods(clauses: list[str]) -> bool:
    """Whether each of several asked clauses names one period of its own and none points back or compares: "What
    rate applies on 31 December 2024, and how far did the euro fall over Q4?" asks two things, compares nothing."""
    dated = [c for c in clauses if find_periods(c)]
    return len(clauses) >= 2 and len(dated) >= 2 and all(len(find_periods(c)) == 1 for c in dated) and not any(
        _BACK_REFERENCE.search(c) or _COMPARES.search(c) for c in clauses[1:])


def _with_years(clause: str, periods: list[Period]) -> str:
    """``clause`` with yearless quarters and months given the year :func:`fill_years` chose ("Q3" -> "Q3 2024",
    "in November" -> "in November 2024"): a search for the bare month would favour another year's reports."""
    quarters = {p.number: p.year for p in periods if p.kind == "quarter" and p.year}
    months = {p.number: p.year for p in periods if p.kind == "month" and p.year}
    clause = re.sub(r"\bQ([1-4])\b(?! (?:19|20)\d{2})", lambda m: f"Q{m[1]} {quarters[int(m[1])]}"
                    if int(m[1]) in quarters else m[0], normalise_periods(clause))
    clause = re.sub(r"\b(jan|feb|apr|jun|jul|aug|sept?|oct|nov|dec)\b\.?", lambda m: next(
        n.capitalize() for n in MONTHS if n.startswith(m[1].lower()[:3])), clause, flags=re.I)  # "Nov" -> "November"
    month_names = "|".join(m.capitalize() for m in MONTHS)
    return re.sub(rf"\b({month_names})\b(?!,? (?:\d{{1,2}},? )?(?:19|20)\d{{2}})", lambda m: f"{m[1]} {months[MONTHS.index(m[1].lower()) + 1]}"
                  if MONTHS.index(m[1].lower()) + 1 in months else m[0], clause)


#: "and what not to do?", "what to avoid": a clause that asks what is forbidden, of the thing the clause before asks about.
_NOT_TO_DO = re.compile(r"\bnot\s+to\s+do\b|\bto\s+avoid\b|\b(?:must|should)(?:n['’]t|\s+not)\s+(?:i\s+|we\s+|they\s+)?do\b", re.I)


def _parts(clauses: list[str], periods: list[Period]) -> list[str]:
    """A specific search per clause that asks for something of its own (not just "which changed more")."""
    parts: list[str] = []
    for clause in clauses:
        if not key_phrase(clause, CUE_WORDS | INCREASE_WORDS | DECREASE_WORDS | AGGREGATE_WORDS):
            if parts and _NOT_TO_DO.search(clause):  # "what to check first - and what not to do?": what the same
                parts.append(f"{parts[-1]} must not")  # source forbids
            continue
        part = key_phrase(_with_years(clause, periods), frozenset({"compare", "why", "explain"}))
        other = _ELLIPTICAL.match(clause)  # "..., and inside 2025's?": the last part again, for another period
        if parts and other and find_periods(other[1]) and not set(terms(other[1])) - anchors(other[1]):
            part = " ".join([*(w for w in parts[-1].split() if stem(w.lower()) not in anchors(parts[-1])), part])
        parts.append(part)
    return list(dict.fromkeys(p for p in parts if p))


#: A part that names only another period: "And inside this year's?", "what about Q3?", "or in 2023?".
_ELLIPTICAL = re.compile(r"^\s*(?:and|or|but|what about|how about)\s+(?:(?:in|for|inside|within|during|at|of|under|on|"
                         r"over|by)\s+)?(?:the\s+)?([^,;?]{1,30}?)\s*\??\s*$", re.I)


_ASKING = re.compile(rf"(?:and\s+)?{WH_WORD}\b", re.I)
#: ", how much did ...", ", how many were ...": the next question of a list.
_NEXT_HOW_MUCH = re.compile(r",\s+(?=how\s+(?:much|many|long|far|often)\s+(?:is|are|was|were|does|do|did|has|have|had|will|"
                            r"can|would)\b)", re.I)


def asked_clause(text: str, part: str) -> str:
    """The clause of ``text`` that the search ``part`` stands for: the longest whose words are all in the search (a
    label before a colon, "2025 plan:", is in every part's search, and asks nothing)."""
    found = [c.strip() for c in _PART_SPLIT.split(text) if c and key_phrase(c)
             and set(key_phrase(c).split()) <= set(part.split())]
    return max(found, key=lambda c: (bool(_ASKING.match(c)), len(key_phrase(c).split())), default="")


def asked_word(text: str, part: str) -> str:
    """The question word ("when", "where", "who") of the clause of ``text`` that the search ``part`` stands for: a
    part's search drops it, but "when the term expires" is answered by a date, not by any sentence about the term."""
    # (at the clause's start, or after the dash or colon that ends its topic: "the new rule — from when does it
    # apply": a date answers it)
    asked = re.search(r"(?:^|\s[—–-]\s|:\s)\s*(?:and\s+)?(?:(?:from|since)\s+(?=when\b))?(until when|by when|when|where|"
                      r"who|how(?=\s+(?:does|do|did|will|would|can)\s+(?:[\w-]+\s+){1,3}?(?:work|works|operate|operates|"
                      r"function|functions)\b))\b", asked_clause(text, part), re.I)
    return asked[1].lower() if asked else ""  # ("how does renewal work": the focus is renewal)


#: "the customer that postponed its order", "the meter which won the tender": a thing known only by what it did.
_RELATIVE = re.compile(r"(?:\b(?:the|a|an|our)\s+|^)((?:[\w-]+\s+){0,2}?[\w-]+)(?<!\bon)(?<!\bin)(?<!\bat)(?<!\bfor)"
                       r"(?<!\bby)(?<!\bof)(?<!\bto)(?<!\bwith)(?<!\bfrom)(?<!\bwithin)(?<!\bduring)(?<!\bunder)(?<!\bafter)"
                       r"(?<!\bbefore)\s+(?:that|who|which|whose|behind|(?<=[a-z] )where)\s+"
                       r"((?:[\w$%.,'’-]+\s+){0,12}?[\w$%'’-]+?)(?=\s*(?:[,?;—–]|\s-\s|$|\s+(?:is|was|are|were|has|have|had|located|based|used|uses|"
                       r"and|do|does|did)\b))", re.I)
#: "the deal the CEO flagged ...": a relative clause without its "that".
_ZERO_RELATIVE = re.compile(r"\b((?:the|our)\s+[a-z][\w-]*)\s+(?=(?:the|our|a|an|my|his|her|their)\s+(?:[\w-]+\s+){0,2}?"
                            r"[a-z]+ed\b)", re.I)
#: "Whoever owns X - what ...": the person who owns X.
_WHOEVER = re.compile(r"\b[Ww]hoever\b")
_BACK_REFERENCE = re.compile(r"\b(its|their|(?-i:it|It)|there|them|they|both)\b|\beach\b(?!\s+(?:year|month|week|day|quarter)\b)|"
                             r"\b(?:is|was|are|were) (?:that|this)\b", re.I)  # ("each year" is a rate, not "each of them")
#: "... for that kind of ticket": the kind is the one the statement describes; its words belong in the search.
_THAT_KIND = re.compile(r"\b(?:that|this|such)\s+(?:kind|type|sort|case|situation)\b", re.I)
#: A statement that names what it is about ("The Penang plant ..."): the question's "it" needs no search to find it.
_STATEMENT_NAMES = re.compile(r"(?<!^)\b[A-Z][a-z]+(?:\s+[A-Z][\w-]+)+")


#: "q3 vs q4 (sum of the months)", "adding up the monthly figures": each quarter is its months added up.
_MONTHS_SUMMED = re.compile(r"\b(?:sum(?:s|med|ming)?|add(?:ing|ed)? up|total)\b[^?.;]*\bmonth(?:s|ly)?\b|"
                            # "total for each quarter": each quarter added up (from its months, where they are given)
                            r"\btotals? (?:for|of) (?:each|every|both) quarters?\b|\beach quarter['’]s total\b|"
                            r"\bmonth(?:s|ly)?\b[^?.;]*\b(?:summed|added up|totall?ed)\b", re.I)
#: "what is that as an average per month?", "month by month": a quarter's figure read from its months.
_PER_MONTH = re.compile(r"\b(?:per|a|each|every) month\b|\bmonthly\b|\bmonth[- ]by[- ]month\b", re.I)
#: "How big was the drop?" after "X: Sept vs Dec.": the change between the sides just named.
#: "A vs B. Which one ...?": a choice among the things just named.
_WHICH_ONE = re.compile(r"\s*which (?:one|of (?:them|the two|these|those|both))\b", re.I)
_THE_CHANGE = re.compile(r"\bthe (?:drop|gap|difference|change|increase|decrease|decline|rise|fall|growth|jump)\b", re.I)


def context_names(context: str) -> str:
    """The names and codes a scene-setting statement mentions ("Aurora OTA"), not its dates: they scope the search."""
    words = context.split()
    owner = re.match(r"([A-Z][\w-]*)['’]s\b", context)  # "Brightwater's finance director": a name ("There's": no)
    possessive = bool(owner) and owner[1].lower() not in STOPWORDS | {"let"}
    words = words[1:] if (len(words) < 2 or not words[1][:1].isupper()) and not possessive and not (
        words and anchors(words[0])) else words  # (a code opening it is a name too: "PX-7 shows ..."); "Cedar
    # Valley contract": a name too
    kept = [re.sub(r"(?<=\d)s$|['’]s$", "", w.strip(".,;:!")) for w in words  # "LX-200s": the code
            if (w[:1].isupper() or anchors(w)) and not find_periods(w) and w.lower().strip(".,;:!") not in STOPWORDS
            and not re.fullmatch(r"[A-Z]&[A-Z][.,;:!]?", w)]  # "Q&A", "R&D": no name
    return " ".join(dict.fromkeys(w for w in kept if w))


def _scene_query(context: str, today: date | None) -> str:
    """A scene-setting statement as a search, its yearless months dated (not by a target year: "moved to 2025")."""
    return key_phrase(_untargeted(_with_years(context, fill_years(find_periods(context), today, target_years(context)))))


def _untargeted(text: str) -> str:
    """``text`` without the years a thing was moved to ("pushed its expansion into 2025"): the search is for the
    report of the move, which is dated to when it happened, not to the target."""
    return TARGET_YEAR.sub(" ", text)


def _with_context(clauses: list[str], periods: list[Period], context: str, today: date | None) -> list[str]:
    """The search of each part; a part that points back into the statement ("which system was it") takes the
    statement's words, the others its names."""
    if not context:
        return _parts(clauses, periods)
    scene = _scene_query(context, today)
    names = context_names(context)
    parts = []
    for clause in clauses:
        for part in _parts([clause], periods):
            parts.append(f"{scene} {part}" if _BACK_REFERENCE.search(clause) or _THAT_KIND.search(clause)
                         else " ".join([part, names, _modifiers_of_named(clause, context)]).strip())
    return list(dict.fromkeys(parts))


#: Words that say which version of a thing is meant, not what kind of thing it is ("the old rules").
_AGES = frozenset({"old", "new", "current", "previous", "same"})


def _modifiers_of_named(clause: str, context: str) -> str:
    """For "the old rules" in a question whose statement spoke of "the new work-from-home rules": the words the
    statement put before the thing the question names again with "the" ("work-from-home"), which say which rules."""
    added = []
    for m in re.finditer(rf"\b(?:the|those|these|that|this)\s+(?:(?:{'|'.join(_AGES)})\s+)?([a-z]{{3,}})\b",
                         clause, re.I):
        head = m[1].lower()
        if head in STOPWORDS:
            continue
        before = re.search(rf"((?:[\w-]+\s+){{1,2}}){re.escape(head)}\b", context, re.I)
        if before:
            added += [w for w in before[1].split() if w.lower() not in STOPWORDS | VERSION_WORDS | _AGES
                      and not set(terms(w)) <= set(terms(clause))]
    return " ".join(dict.fromkeys(added))


#: What a "who" question's answer may be called later: "Who placed the order, and what does that customer pay?"
_WHO_NOUNS = frozenset(map(stem, word_set("customer client company account person supplier vendor buyer rep owner "
                                           "manager firm")))


#: A part that asks what a thing is: "which code was it", "who was it", "what was the name of the supplier".
_IDENTIFIES = re.compile(r"^\s*(?:which|who|what)\b[^,;]*\b(?:was|is|were|are) (?:it|that|this|they)\s*$", re.I)


#: An ask of nothing but its verb: "and what are you supposed to check?", "what should I do next?".
_BARE_ASK = re.compile(r"(?:and\s+)?(?:what|how)\s+(?:are|is|do|does|should|must|can)\s+(?:you|we|I|one)\s+(?:normally\s+|usually\s+|"
                       r"then\s+)?(?:supposed\s+to\s+|meant\s+to\s+|expected\s+to\s+)?(?:check|do|try|look at|test)"
                       r"(?:\s+(?:first|next|then))?", re.I)


def _points_back(clause: str, earlier: str) -> bool:
    """Whether the clause points back to an earlier answer: "its address", or "that code" when an earlier clause
    asked for a code."""
    named = {stem(m.lower()) for m in re.findall(r"\b(?:that|this|those|these|the same)\s+([a-z]+)", clause, re.I)}
    asked_who = re.match(r"\s*who\b", earlier, re.I) and named & _WHO_NOUNS  # "Who placed ...? ... that customer's"
    # "Which code was it, and what does the manual say to check first?": a part that names nothing of its own is
    # about the thing the first part identified
    identified = (_IDENTIFIES.search(earlier) or _BARE_ASK.fullmatch(clause.strip(" ?,"))) and not _STATEMENT_NAMES.search(
        f"x {clause}") and not anchors(clause)  # ("..., and what are you normally supposed to check?": nor this one)
    # ("the deal the CEO flagged - who owns that account?": a demonstrative after a thing named on its own points
    # back to that thing)
    pointing = {stem(m[1].lower()) for m in re.finditer(r"\b(?:that|this|those|these)\s+([a-z]+)", clause, re.I)
                if stem(m[1].lower()) not in set(terms(clause[:m.start()]))} - STOPWORDS  # (not "which customer is
    # ..., and what does the contract of this customer say": the clause named that customer itself)
    topic = bool(pointing) and bool(re.match(r"\s*(?:the|our)\s", earlier, re.I)) and not _ASKING.search(earlier)
    return bool(_BACK_REFERENCE.search(clause) or named & set(terms(earlier)) or asked_who or identified or topic)


def _referring(clauses: list[str], periods: list[Period]) -> list[str]:
    """The parts after the first whose clause points back to an earlier answer."""
    return [p for i, clause in enumerate(clauses[1:], start=1) if _points_back(clause, " ".join(clauses[:i]))
            for p in _parts([clause], periods)]


#: "brightwater has 240 gateways in their contract?": a statement checked, and the thing it is about.
_CHECKED_SUBJECT = re.compile(r"^\s*((?:[\w&-]+\s+){0,2}?[\w&-]+)\s+(?:has|have|is|are|was|were|gets?|got|pays?|paid|"
                              r"owns?|runs?|buys?|bought)\b", re.I)
#: How much each cause counted: "how much did each cause weigh", "what relative weight does it give each", "how
#: did the review apportion responsibility among the causes", "how much of it does each cause explain".
_ASKS_CAUSE_WEIGHT = re.compile(r"\b(?:what\s+(?:relative\s+)?(?:weight|share|proportion)|apportion\w*|weigh\w*)\b[^?]*"
                                r"\b(?:each|every|among)\b|"
                                r"\bhow much\b[^?]*\b(?:each|every)\s+(?:of\s+(?:the|them)\s+)?(?:cause|reason|factor|driver)s?\b|"
                                r"\b(?:each|every)\s+(?:cause|reason|factor|driver)\b[^?]*\b(?:weigh\w*|explain\w*|"
                                r"contribut\w*|account\w*\s+for)\b", re.I)
#: A party named in full: two or more capitalised words ("Brightwater Utilities", "Harbour Lane Bakery").
_PARTY_NAME = re.compile(r"(?<![\w-])[A-Z][a-z]+(?:\s+[A-Z][a-z]+)+\b")
#: A clause that asks for a name: what a later "their" means is its answer, not a name it gives.
_ASKS_NAME = re.compile(r"\b(?:who|whom|whose|which)\b|\bwhat\s+(?:is|was|'s)?\s*(?:the\s+)?(?:name|customer|company|"
                        r"supplier|party|firm)\b", re.I)


def _named_party(clauses: list[str]) -> str:
    """The one party the first clause names in full, when it asks for no name and a later clause says "their", "its"
    or "the contract"; else ""."""
    if len(clauses) < 2 or _ASKS_NAME.search(clauses[0]) or not re.search(
            r"\b(?:their|its|the\s+(?:contract|agreement))\b", " ".join(clauses[1:]), re.I):
        return ""
    names = set()
    for found in _PARTY_NAME.findall(clauses[0]):  # ("If Brightwater Utilities ...": the sentence's first word is none)
        words = found.split()
        while words and words[0].lower() in STOPWORDS:
            words.pop(0)
        if len(words) >= 2 and not find_periods(" ".join(words)):
            names.add(" ".join(words))
    return names.pop() if len(names) == 1 else ""


#: "operating margin (operating income / revenue)": a rate the question defines as one measure over another.
_FORMULA = re.compile(r"\b(margin|rate|share|ratio|percentage|yield)\s*\(\s*([a-z][a-z -]{1,40}?)\s*/\s*([a-z][a-z -]{1,40}?)\s*\)",
                      re.I)


#: "... in each", "for both of them": the same asked of every side.
_EACH = r"\b(?:in|for|of|under|at)\s+(?:each|both)\b"
_OF_EACH = re.compile(_EACH, re.I)
#: "the price in A vs B, plus the fee in each": another measure asked of the same sides.
_IN_EACH = re.compile(rf",?\s+(?:and|plus|as well as|also)\s+((?:the|their|its)\s+[^,;?]+?\s+{_EACH}"
                      r"(?:\s+of\s+them)?)\b", re.I)
#: "Cedar Valley contract - liability cap + carve-outs?": items joined by "+" after a scene are asked each.
_PLUS_LIST = re.compile(r"^(.+?(?:\s[-–—]|:)\s+)([A-Za-z][^+?:]*?)\s+\+\s+([A-Za-z][^+?:]*?)\s*\??$")


#: "run the X contract against ...": the verb that asks for a review, and what it is held against.
_RUN = re.compile(r"^(?:please\s+)?(?:run|check|review|test|hold|put|compare|measure|screen|vet)\s+(?:the\s+|our\s+)?", re.I)
_HELD_AGAINST = re.compile(r"\s+(?:against|vs\.?|versus|through|by)\s+.*$", re.I)
#: "quick check on", "a look at", "review of": how a review is asked for, before what is reviewed.
_CHECK_ON = re.compile(r"^(?:(?:a\s+)?(?:quick|brief|short|fast)\s+)?(?:check|look|review|scan|pass)\s+(?:on|at|of|over)\s+"
                       r"(?:the\s+)?", re.I)


def _reviewed(text: str, question: str) -> str:
    """What a review question asks to check: the agreement it names ("the Sable Rail contract", "Sable Rail logged in
    the contract register"), else the thing named before its colon or dash ("the A charter's renewal clause - ... a
    red flag?"), unless that only frames the request ("Quick check - ..."), else the whole question."""
    agreement = _REVIEWED_AGREEMENT.search(question)
    if agreement:
        return agreement[0]
    standard = {m[1] for m in re.finditer(r"\b([A-Z][\w-]*)['’]s?\s+(?:\w+\s+)?(?:checklist|standards?|playbook)", question)}
    names = " ".join(w for s in re.split(r"(?<=[.?!])\s+", question) for w in context_names(s).split()
                     if w not in standard)  # ("Legal's checklist": whose standard it is, not the party)
    if names and re.search(rf"\b{AGREEMENT_WORD}s?\b|\bclauses?\b|\bterms\b", question, re.I):
        return f"{names} contract"
    lead = LEAD.match(text) or LEAD.match(question)  # ("oakridge framework — does anything in it break ...?")
    if not lead:
        return text
    # ("quick check on the X contract — ...": how the request is made is no part of what is reviewed)
    reviewed = text[lead.end():] if PREAMBLE.match(lead[1]) else _CHECK_ON.sub("", lead[1])
    # ("run the X contract against legal's checklist - ...": the X contract)
    return _HELD_AGAINST.sub("", _RUN.sub("", reviewed)) or reviewed


def analyse(question: str, today: date | None = None) -> Question:
    """Break ``question`` down into sides, subject, parts, causes, the operation and other systems."""
    question, conversion = conversion_asked(_FORMULA.sub(r"\1, \2 as a share of \3", correct(question)))
    question = re.sub(r"\bper (the|our|your|their|its)\b", r"according to \1", question, flags=re.I)  # not a rate
    question = anchor_relative(question)
    # ("last quarter vs the quarter before": the one before is anchored once "last quarter" has a date)
    text = re.sub(r"\s+", " ", anchor_relative(resolve_relative(question, today)) if today else question).strip()
    text = that_period(attach_years(expand_spans(text)))
    text = re.sub(r"\b((?:19|20)\d{2})\s*(?:->|→)\s*((?:19|20)\d{2})\b", r"from \1 to \2", text)  # "2024 -> 2025"
    text = plainly_asked(unframed(without_remarks(text)))  # (what is said after the question first goes)
    text = _WHOEVER.sub(lambda m: f"{'T' if m[0][0] == 'W' else 't'}he person who", text)  # "whoever runs X"
    text = _PLUS_LIST.sub(lambda m: f"{m[1]}what is {m[2]} and what is {m[3]}?", text)  # "X - cap + carve-outs?"
    text = _IN_EACH.sub(r", and what is \1", text)  # "the price in A vs B, plus the fee in each": a second ask
    text = listed_asks(without_remarks(buried_ask(text)))  # "1) ..., 2) ...": asks set apart
    premise = PREMISE.match(text)  # "Given that X, what ...?" states X, then asks
    if premise:
        text = f"{premise[1][:1].upper()}{premise[1][1:]}. {premise[2][:1].upper()}{premise[2][1:]}"
    text = FOR_USE.sub("", text)
    source = SOURCE.match(text) or SOURCE_AFTER.search(text)
    if source:
        text = text[source.end():] if source.start() == 0 else f"{text[:source.start()]}?"
        text = text[:1].upper() + text[1:]
    bridge = _BRIDGE.search(text)
    if bridge:
        text = " ".join((text[:bridge.start()] + text[bridge.end():]).split()).strip(" ,")
    one_question = False  # a statement and its question read as one: "it" points into the question itself
    request = REQUEST.match(text)
    if request:
        text = text[request.end():request.end() + 1].upper() + text[request.end() + 1:]
    lead = LEAD.match(text)  # "For the Q1 planning deck: what were the bookings for Oct to Dec?": the deck's
    if lead and FOR_WHOM.match(lead[1]) and PREAMBLE.match(lead[1]) and not context_names(
            FOR_SOMEONE.sub(" ", lead[1])) and (find_periods(text[lead.end():]) or not find_periods(lead[1])):
        text = text[lead.end()].upper() + text[lead.end() + 1:]  # quarter is not one asked about
    elif lead and PREAMBLE.match(lead[1]) and ":" not in text[lead.start(1):lead.end()]:  # "I'm new here, so sorry
        text = f"{lead[1]}: {text[lead.end():]}"  # if this is basic - why ...?": a preamble, as before a colon
    dashed = DASHED_STATEMENT.match(text)
    asked_after = text[dashed.end(1):] if dashed else ""  # "Big tender out - what is the value and how is price
    # weighted?": the scene before the dash scopes each part, as does one the question points back to
    several = len([c for c in _PART_SPLIT.split(asked_after) if c and c.strip(" ,-–—")]) >= 2
    if dashed and (_points_back(asked_after, dashed[1]) or several and len(find_periods(dashed[1])) < 2) \
            and not _COMPARISON.search(dashed[1]) and len(_alternatives(dashed[1])) < 2:  # "X vs Y - which was higher?"
        # (and "june or july 2022 - which had more, and by how much?" is one question too)
        text = f"{dashed[1]}. {dashed[2].capitalize()}{text[dashed.end():]}"
    statement = STATEMENT.match(text)
    if statement and (re.search(r"\b(?:i\.e|e\.g|vs|cf|incl)\.$", statement[1], re.I)
                      or not key_phrase(statement[2], CUE_WORDS | _GIVEN | MOVE_WORDS | _FRAMING | AGGREGATE_WORDS)  # "What caused that?", "What were the
                      # reasons given?" ask only about the statement
                      or (_BACK_REFERENCE.search(statement[2]) or _THE_CHANGE.search(statement[2])
                          or _WHICH_ONE.match(statement[2])) and (re.search(r"\b(?:vs\.?|versus|compared (?:with|to))\s", statement[1], re.I)
                               or len(_alternatives(statement[1].rstrip(".!"))) >= 2)):
        statement = None  # "X: Sept vs Dec. How far did it drop?" is one question; "i.e." ends no sentence
        one_question = True
    elif statement and (re.search(r"\b(?:vs\.?|versus)\s", statement[1], re.I) and not _FINITE_VERB.search(statement[1])
                        or re.match(r"\s*(?:compare|contrast)\b", statement[1], re.I)):
        statement = None  # "termination for convenience - A vs B. who can walk away?": a label, not a statement;
        one_question = True  # "compare A to B - X, Y and Z. whats the % increase in X?": the request, then its ask
    context = statement[1] if statement else ""
    text = statement[2] if statement else text
    source = source or SOURCE.match(text)  # "Brightwater is unhappy. Going by the contract, what ...?"
    if source and text.startswith(source[0]):
        text = text[source.end():]
        text = text[:1].upper() + text[1:]
    text = CONCESSION.sub("", text) or text  # "why did X dip even though sales were a record?" asks about X
    listed = _OF_LIST.match(text) or _DASHED_LIST.search(text)  # "Of the A, B and C agreements, which ...?", "For
    # the three agreements Erin owns — A, B and C — what are the respective ...?": the sides come first
    if listed:
        text = text[listed.end()].upper() + text[listed.end() + 1:]
    periods = fill_years(spread_over_years(find_periods(text)), today, target_years(text), happened_periods(text))
    clauses = [c.strip(" ,") for c in _PART_SPLIT.split(text) if c and c.strip(" ,")] or [text]
    # "Who supplies X, how much did the contract cut Y, and ...": a question, then another (not "Under the current
    # policy, how much is X": a scope, then the question)
    clauses = [piece.strip(" ,") for clause in clauses for piece in (
        _NEXT_HOW_MUCH.split(clause) if _ASKING.match(clause) else [clause]) if piece.strip(" ,")]
    preamble = [c for c in clauses if PREAMBLE.match(c)]
    asking = [c for c in clauses if c not in preamble]
    clauses = asking or clauses  # "I'm new here and trying to understand X: why ...?" asks only after the colon
    reported = [c for c in preamble if PASSED_ON.search(c)]  # who passed the question on scopes it only when the
    scoping = [c for c in preamble if c not in reported or any(  # question points back to them ("is that true of
        _BACK_REFERENCE.search(a) for a in asking)]  # their lease?"); "For the Harbor Street bakery: ..." scopes it
    audience = " ".join(m[1] for c in scoping for m in FOR_SOMEONE.finditer(c))  # "the pack for Ann's intake"
    scene = context_names(FOR_SOMEONE.sub(" ", " ".join(scoping))) if asking else ""  # "I'm at the Rotterdam
    aside = " ".join(sorted(set(terms(f"{context_names(' '.join(c for c in preamble if c not in scoping))} {audience}"))
                            - set(terms(" ".join(asking)))))  # office: ..." scopes it; ("For Ann's 9am": Ann is none)
    named = next((g for g in source.groups() if g), "") if source else ""  # (whichever way it is written)
    scope = key_phrase(_with_years(named, fill_years(find_periods(named), today))) if named else ""
    main = next((c for c in clauses if len(find_periods(c)) >= 2 or _COMPARISON.search(c)), clauses[0] if clauses else text)
    spelled_out = _quarters_spelled_out(text, periods) or (_quarters_spelled_out(  # "Add up Oct, Nov and Dec. What's
        f"{context} {text}", fill_years(find_periods(f"{context} {text}"), today)) if context else [])  # the Q4 total?"
    sides = spelled_out or ([] if _own_periods(clauses) else _sides(main, periods, text))
    every = _EVERY_QUARTER.search(f"{context} {text}")
    if not sides and every:  # "rank the four quarters of 2023 by gross margin": each quarter is a side
        sides = [f"Q{number} {every[1]}" for number in range(1, 5)]
    pair = _NAMED_PAIR.search(context) if context and _OF_THE_TWO.search(text) else None
    if not sides and pair:  # "Brightwater and Sable Rail both roll over. Which of the two ...?"
        sides = [pair[1].rstrip("."), pair[2].rstrip(".")]  # (not the full stop after the second)
    if listed:  # (not "the top and the bottom of the three" after it)
        sides = [n for n in re.split(r",\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+", listed[1]) if n]
    choices = _CHOICES.search(f"{context} {text}") if not sides and _ASKS_CHOICE.search(text) else None
    if choices:  # "which of A, B and C pays fastest?", "my accounts (A, B, C): which one ...?"
        sides = [n for n in re.split(r",\s*(?:and\s+|or\s+)?(?:the\s+|our\s+)?|\s+(?:and|or)\s+(?:the\s+|our\s+)?",
                                     choices[1] or choices[2], flags=re.I) if n]
    described = _DESCRIBED_PAIR.search(f"{context} {text}") if not sides and _EACH_NAME.search(text) else None
    if described and all(key_phrase(d) for d in described.groups()):  # "the two incidents last year (the outage in
        sides = [key_phrase(d) for d in described.groups()]  # Aug, the firmware bug in Nov) - how long was each?"
    if not sides and _ASKS_CHOICE.search(text):  # "which ship carried the most: the Aurora, the Borealis or ...?"
        sides = [s for s in _alternatives(text) if s.lower() not in main.lower()]
        sides = sides if len(sides) >= 2 else []
        # "What lead time does the A agreement set, what does the B agreement set, and which is shorter?": one name
        # in each of the parallel clauses
        named = [found[0] for c in clauses if len(found := _CLAUSE_NAME.findall(c)) == 1] if _WHICH_SIDE.search(text) else []
        sides = sides or (named if len(named) >= 2 and len(set(named)) == len(named) else [])
    if len(sides) >= 3:  # "revenue for Q1, Q2 and Q3 and the total through September": a month inside a quarter
        sides = [side for side in sides if not any(_within(side, other) for other in sides if other != side)]  # ends it
    led = [_MEASURE_LED.match(side) for side in sides]
    if len(sides) == 2 and any(led):  # "max pipe size lx-200 vs the vx-9": the measure leads the first side
        sides = [m[2] if m else side for m, side in zip(led, sides, strict=True)]
        main = f"{main} {next(m[1] for m in led if m)}"
    qualifiers = _qualifiers(main, sides)
    measures, operations = _listed_measures(context or text, text if context else "") if len(sides) >= 2 else ((), ())
    if set(measures) == set(sides):  # ("... — A and B. How fast under each contract?": the names are no measures)
        measures, operations = (), ()
    if not measures and len(sides) >= 2 and all(find_periods(side) for side in sides):
        measures = next((m for c in (main, *clauses) if (m := _measures(c))), ())  # ("X between 2023 and 2024: what
        # happened to the per diem and the hotel cap?")
    if len(sides) >= 2 and not measures:
        measures, operations = _asked_measures("; ".join(clauses), sides)
    if len(sides) >= 2 and all(find_periods(side) for side in sides) and not measures:  # "2024 -> 2025: merit pool
        measures = next((tuple(pair) for c in clauses if not find_periods(c)  # vs market adjustment, which went up?"
                         for pair in [_versus(c) or _joined(c)] if len({p.lower() for p in pair if p}) == 2), ())
        # ("Budget vs budget: ...": one kind of thing twice is the sides' kind, no two measures)
    paired = _PAIRED_MEASURES.search(text) if len(sides) == 2 and not measures and all(
        side == "now" or find_periods(side) for side in sides) else None
    if paired and all(key_phrase(m) and not find_periods(m) for m in paired.groups()):  # "per diem and hotel cap
        measures = (key_phrase(_rate_joined(paired[1])), key_phrase(_rate_joined(paired[2])))  # now vs 2023": two
        # measures of each period
    listed_on = _COMPARED_ON_LIST.search(text) if len(sides) >= 2 and not measures else None
    items = [key_phrase(_rate_joined(i)) for i in re.split(r",\s*(?:and\s+)?|\s+and\s+", listed_on[1])] if listed_on else []
    if 3 <= len(items) <= 5 and all(items):  # "compare in terms of severity, duration and the devices affected"
        measures = tuple(items)
    on = _COMPARED_ON.search(text) if len(sides) >= 2 and not measures else None
    if on:  # "how does Q3 2024 compare with Q3 2023 on gross margin and gross profit?": two measures of each side
        measures = (key_phrase(_rate_joined(on[1])), key_phrase(_rate_joined(on[2])))
    subject = _refined_subject(main, clauses, sides)
    if not subject and context and spelled_out:  # "Add up bookings for Oct, Nov and Dec. What's the Q4 total?"
        subject = _refined_subject(context, [context], sides)
    ranked_by = _RANKED_BY.search(f"{context} {text}") if sides else None
    if ranked_by:  # "rank the four quarters of 2023 by gross margin — which was best ...": the measure ranks them
        subject = _subject(ranked_by[1], sides)
    if sides and not subject and context and not _ASKING.search(context) and len(key_phrase(context).split()) <= 5:
        subject = _subject(context, sides)  # "equipment allowance - what did the old policy give vs the current one?"
    if sides and not subject:  # "which was lower: the X in March or in April?": the measure sits with the sides
        subject = _subject(max(clauses, key=lambda c: sum(side.lower() in c.lower() for side in sides)), sides)
    if qualifiers:
        subject = " ".join(w for w in subject.split() if w.lower() not in VERSION_WORDS)
    subject = one_word_per_measure(subject)
    clause = _contract_clause(subject) if sides and re.search(rf"\b{AGREEMENT_WORD}s?\b", text, re.I) and not re.search(
        r"\bper-[a-z]", subject) else ""  # (what each pays per gateway is a price, not a payment clause)
    subject = clause or subject  # "which contract gives the customer longer to pay?": its payment terms
    names = context_names(context)
    codes = [w for w in names.split() if anchors(w) and w not in sides]  # "Two accounts buy LX-200s. Which pays more
    if sides and codes:  # per meter, A or B?": the price of an LX-200 (a code qualifies the measure; a place or a
        # person does not, nor a code that is a side: "one PX-7 and one LX-200 ... which of the two ...?")
        subject = " ".join(dict.fromkeys([*subject.split(), *codes]))
    versions = _VERSIONS_OF.search(text) if not scope and len(sides) == 2 and all(find_periods(s) for s in sides) else None
    scope = key_phrase(versions[1]) if versions else scope  # "between the 2023 and the 2024 travel policy": each
    # year's figures are searched in that document
    parts = tuple(" ".join(f"{part} {scope} {scene}".split())
                  for part in _with_context(clauses, periods, context, today) or [text])
    label = _LABEL.match(text)
    topic = key_phrase(_with_years(label[1] or label[2], periods)) if label and len(clauses) >= (
        3 if label[1] else 2) else ""
    short = _DASHED_LABEL.match(text) if not (topic or dashed or sides) and len(clauses) >= 2 else None
    if short and not find_periods(short[1]):  # "Harwick CSA - the value of the 200 crates, plus the yearly fee if
        # all 12 bays are on it?" (a dated label, "the outage on 21 Aug - ...", is an event the parts ask about)
        topic = key_phrase(_with_years(short[1], periods))
    if not topic and dashed and context.strip(" .") == dashed[1].strip(" .") and not names and len(clauses) >= 2:
        # "The acquisition the board is weighing up - who's the target, at what price, ...?": the thing before the
        # dash, named by what it is, is what each part asks about
        topic = _scene_query(context, today)
    if topic:  # "X tender: by when are bids due, and how is price weighted?": each part is about X
        parts = tuple(dict.fromkeys(p if p.startswith(topic) else f"{topic} {p}" for p in parts if p != topic))
    referring = () if one_question else tuple(f"{part} {scope}".strip() for part in _referring(clauses, periods))
    checked = _CHECKED_SUBJECT.match(clauses[0]) if referring and not _ASKING.search(clauses[0]) else None
    if checked:  # "brightwater has 240 gateways, right? what does that come to at their rate?": a yes-or-no check
        # answers no name; "their" is the one it names
        named = {p: f"{checked[1]} {p}" for p in referring}
        parts, referring = tuple(named.get(p, p) for p in parts), ()
    party = _named_party(clauses) if len(parts) >= 2 and not sides and not asks_orders(clauses) else ""  # (an
    # orders question's later parts are searched with the customer and the product its records give)
    if party:  # "If Brightwater Utilities buys ..., how much is that, and what does their (or the) contract charge
        # per gateway?": a first clause that asks for no name gives none; "their" is the party it names
        parts = (parts[0], *(p if party.lower() in p.lower() else f"{party} {p}" for p in parts[1:]))
        referring = ()
    if context and not sides and any(_points_back(c, context) for c in clauses) and not find_periods(text) \
            and not _STATEMENT_NAMES.search(context) and not codes:  # (a code names the thing: "the K-9 ... it")  # "One customer pushed its order to 2025. What payment terms
        # does their contract have?", "... showed one error code. What does the manual say about that code?"
        asked = tuple(dict.fromkeys(_parts(clauses, periods)))  # find the customer first, then ask with its name
        parts, referring = (_scene_query(context, today), *asked), asked
    scene_only = bool(re.match(r"(?:i|i'm|i am|i've|we|we're)\b", context, re.I))  # "I'm new here. The X that ...":
    # the asker's own scene names no referent
    if not (sides or bridge or context and not scene_only) and re.search(r"\s[-–—]\s|,\s*(?:who|what|which|when|where|how)\b", text):
        text = _ZERO_RELATIVE.sub(r"\1 that ", text)  # "the deal the CEO flagged - who owns it?": the deal that ...
    relative = _RELATIVE.search(text) if not (sides or bridge or context and not scene_only) else None
    first_split = _PART_SPLIT.search(text.rstrip(" ?"))
    if relative and (referring and relative.start() > 0 or first_split and relative.start() > first_split.end()):
        relative = None  # "which office runs the plant whose ..., and what is its address?": parts already chain;
        # "What is X, who leads the team that owns Y, and ...?": the clause is one ask among others
    if relative:  # "where is the supplier that delivered the flour late located?": find the supplier, then ask
        # "the city where the kick-off was held in January - how many staff work there?": its verb ends at the dash
        held = re.match(r"\s+(?:is|was|are|were)\s+[^,?;:—–]*?(?=\s[-–—]\s)", text[relative.end():], re.I)
        rest_text = text[:relative.end(1)] + text[relative.end() + (held.end() if held else 0):]
        rest = tuple(dict.fromkeys(p for clause in _PART_SPLIT.split(rest_text) if clause and clause.strip(" ,-–—")
                                   for p in [key_phrase(_with_years(clause, periods))] if p))
        named_by = f"{relative[1]} {relative[2]} {held[0] if held else ''}"
        parts, referring = (key_phrase(_untargeted(_with_years(named_by, periods))), *rest), rest
        # "the customer that placed the largest order — when does their contract end?" asks no order's status:
        asked_clauses = [rest_text]  # the clause that names the thing is not what is asked
    else:
        asked_clauses = [context, *clauses]
    total = bool(_TOTAL.search(text))
    if total and asks_orders(asked_clauses) and sides and {side for side in sides} == {
            Period(p.year, "month", m).text for p in periods if p.kind == "quarter" and p.year
            for m in range(p.number * 3 - 2, p.number * 3 + 1)}:  # "orders placed in Q4 (Oct to Dec)": one period
        sides = []
    grouped = _grouped_periods(sides, periods) if total and not asks_orders(asked_clauses) else []
    if grouped:  # "total revenue in Q1 and Q2 2024 vs Q1 and Q2 2023", "sum Q1 and Q2 for 2023 and for 2024": each
        sides, measures, operations = grouped, (), ()  # year's periods added up, then the sums compared
    operation = _operation(text, sides, total)
    if operation == "percentage-point change" and re.search(r"\bshare of\b", main, re.I) and "share" not in subject:
        subject = f"{subject} share"  # "the subscriptions' share of revenue, 2023 vs 2024": the share is measured
    if not sides and operation in ("average", "sum") and len(periods) == 1 and _PER_MONTH.search(text) \
            and not asks_orders(asked_clauses) and len(months_of(periods[0].text)) == 3:
        sides = months_of(periods[0].text)  # "the Q4 total, and the average per month": its three months
    compared = bool(_COMPARISON.search(text) or _DIFFERENCE.search(text))  # ("..., and how far down is that on Q3?")
    monthly = bool(grouped) or len(sides) == 2 and bool(_MONTHS_SUMMED.search(text) or spelled_out or re.search(  # ("Q4 vs Q3 -
        r"\btotals?\b", text, re.I) and compared) and all(  # totals and % drop?": each side's total)
        len(months_of(s)) == 3 for s in sides)
    if operation == "sum" and (spelled_out or monthly and compared):  # "add up Oct, Nov and Dec and
        operation = "difference"  # compare with Jul-Sep", "Q4 vs Q3, summing the months: the Q4 total and the
        # decline?": each side is a sum, and the sides are compared
    across = _across(text, sides)
    if across:  # "Between Sep and Dec, which region fell more, A or B?": each name's change, then compared
        subject = _measure_of(subject, across)
        listed = _EACH_LISTED.search(text)  # "did A and B each book ...": the names listed are no measures
        measures, operations = ((), ()) if listed and [listed[1], listed[2]] == across else (measures, operations)
        shared = _SHARED_MEASURE.search(text)  # "how did LX-200 bookings and Aurora Cloud bookings move": the word
        # they share is the measure (a label, "Hardware vs cloud:", is none; "adult fare vs child fare" are two)
        if shared and re.search(r"\sand\s", shared[0]) and [key_phrase(shared[1]), key_phrase(shared[3])] == across:
            subject, measures, operations = key_phrase(shared[2]), (), ()
    added = _added(text) if not sides and re.search(r"\bhow (?:many|much)\b|\btotal\b|\bin all\b", text, re.I) else []
    if added:  # "how many days off do annual leave and the public holidays add up to?": each searched, then summed
        sides, measures, operations, operation = added, (), (), "sum"
        counted = re.search(r"\bhow many\s+((?:[\w-]+\s+){0,2}?(?:days|hours|weeks|people|units|items))\b", text, re.I)
        subject = key_phrase(counted[1]) if counted else _measure_of(subject, added)
    held_against = _held_against(f"{context} {text}".strip()) if not sides else None
    if held_against:  # "What does A pay for X? Is that more or less than B pays?": A and B, on the first ask's measure
        (sides, subject), measures, operations = held_against, (), ()
        operation = "percent change" if _PERCENT.search(text) else "difference"
    compared = compared_in(f"{context} {text}".strip(), conversion) if conversion else None
    if compared:  # "the VX-9's price in euros ... how far below our LX-200's is it": two priced things, one measure
        (sides, subject), measures, operations = compared, (), ()
        operation = "percent change" if _PERCENT.search(f"{context} {text}") else operation or "difference"
    if len(measures) >= 2 and not operations:  # "... revenue and gross margin ...? Give the revenue delta as a %,
        operations = _own_operations(measures, text)  # and the margin delta in points."
    analysed = Question(
        text=text, query=" ".join([key_phrase(_with_years(text, periods)), names]).strip(), periods=tuple(periods),
        subject=subject, sides=tuple(sides), cause=bool(_CAUSE.search(QUOTED.sub(" ", text)) or _ACCOUNTS_FOR_CHANGE.search(text)),
        qualifiers=qualifiers, measures=measures, operations=operations,
        direction=_direction(text), percent=bool(_PERCENT.search(text) or _CHANGE_AS_SHARE.search(text) or compared and _PERCENT.search(context)) and operation == "percent change", total=total,
        amount=bool(_AMOUNT.search(text)),
        parts=parts,
        orders=asks_orders(asked_clauses), public=bool(_PUBLIC.search(text) or _PUBLISHED.search(question)),
        source=scope, referring=referring,
        bridge=(bridge[1].lower(), key_phrase(bridge[2])) if bridge else (),
        reviewed=key_phrase(_reviewed(text, question), _REVIEW_FILLER) if _REVIEW.search(text) or _AGAINST_STANDARD.search(text)
        and re.search(rf"\b{AGREEMENT_WORD}s?\b|\bclauses?\b|\bterms\b|\bstandard\s+positions?\b", question, re.I) else "",
        # (named in a statement first; "our standard position" is the standard a contract's terms are held against)
        operation=operation, choice=len(sides) >= 2 and bool(_WHICH_SIDE.search(text) or _RANK.search(question)),
        monthly=monthly,
        # ("what share of the capex budget is the Penang item, 2024 vs 2025?": the share in each period)
        share_of=_share_of(text, context=context) if operation == "share" and not sides else tuple(
            _without_periods(f) for f in _share_of(text)) if operation == "share" and all(
            find_periods(side) for side in sides) and not _nested(sides) else _share_of(
            text, (_PORTION,)) if operation == "portion" else (), extreme=_extreme(text),
        owner=names if _PARTY.search(context) and not anchors(names) and re.search(r"\b(?:their|its)\b", text, re.I)
        else "", aside=aside, conversion=conversion, across=tuple(across),
        sources=() if len(sides) >= 2 or _REVIEW.search(text) or _AGAINST_STANDARD.search(text)
        else named_sources(f"{context} {text}".strip()))
    return replace(analysed, answer_type=_answer_type(analysed))
