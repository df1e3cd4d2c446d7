"""How a question is framed: the words around what it asks.

People rarely type the bare question. They greet, say what they are doing ("Pulling the yoy compare for the IR
pack:"), who passed the question on ("Ticket from the ops lead:"), why they ask ("... ? Just need the number for a
model."), where to look ("according to the 2024 policy"), or state a premise first ("Given that ..., what ...?").
The patterns here find that framing so that :func:`.questions.analyse` reads the ask itself; a framing that names a
place or a party still scopes the search, and ``analyse`` decides that.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from .daycount import WRITTEN_DATE
from .text import MONTHS, WH_WORD, WH_WORDS, terms

#: The organisation the assistant serves, as its system prompt names it ("the research assistant of Lumora
#: Instruments Ltd."): every internal document is about it, so its name singles no passage out.
_ASSISTANT_OF = re.compile(r"\bassistant\s+(?:of|for|at)\s+(?:the\s+)?([A-Z][\w&-]*(?:\s+[A-Z][\w&.-]*)*)")
_OWN: ContextVar[frozenset[str]] = ContextVar("own_organisation", default=frozenset())


@contextmanager
def serving(system: str) -> Iterator[None]:
    """Read one request as the assistant of the organisation its system prompt names (none named: no one)."""
    m = _ASSISTANT_OF.search(system)
    token = _OWN.set(frozenset(terms(m[1])) if m else frozenset())
    try:
        yield
    finally:
        _OWN.reset(token)


def own_terms() -> frozenset[str]:
    """The words of the name of the organisation the assistant serves (see :func:`serving`)."""
    return _OWN.get()

#: "Pulling the ...", "Working on ...": what the asker is doing ("During the ..." is a preposition, and scopes).
DOING = (r"(?!(?:during|regarding|concerning|following|including|excluding|considering|pending|barring)\b)"
         r"[a-z]+ing\s+(?:the|a|an|our|my|together|up|on|through)\b")
#: A clause about the asker that asks nothing: "I'm new on the team and trying to understand the outage".
PREAMBLE = re.compile(rf"^(?!.*\b{WH_WORD}\b)"
                      r"(?:(?:(?:hi|hello|hey|so|ok|okay)\b[,!]?\s*)?(?:i'm|i am|i was|i've|i have|we're|we are|"
                      # "I joined this month: ...", "we just moved offices, ...": what happened to the asker
                      r"(?:i|we)\s+(?:just\s+|only\s+|recently\s+)?(?:joined|started|moved|arrived|transferred|switched))\b|"
                      # "Before I start haggling: ...": when the asker will use the answer
                      r"(?:before|after|while|once) (?:i|we)\b|"
                      # "Before the next renewal window: ...": when the answer is needed, not what is asked about
                      r"(?:before|ahead of|in time for) (?:the|my|our|a|an|this|next)\s[\w\s/-]{1,40}$|"
                      # "Can you pull together a one-liner for Ann: ...": what the asker wants made of the answer
                      r"(?:can|could|would) (?:you|someone) (?:please )?(?:pull together|put together|draft|write up|"
                      r"prepare)\b|"
                      # "For the board slide: ...", "Quick one for Ann's 9am: ...", "Need the year-to-date figure: ...":
                      # what the answer is for
                      r"(?:(?:quick|short|small) (?:one|q|question) )?"
                      r"(?:for (?:the|my|our|a|an|this|next|[a-z][\w-]*['’]s)|(?:i )?need (?:the|a|an))\s[\w\s/-]{1,40}$|"
                      # "QBR prep, pricing slide: ...": the piece of work the answer goes into
                      r"(?:[\w&-]+\s+){0,2}(?:prep|slide|deck)(?:,\s*(?:[\w&-]+\s+){0,2}(?:prep|slide|deck))?$|"
                      # "Pulling the yoy compare for the IR pack: ...", "Working on the 2025 plan: ...": what the
                      # asker is doing when the question comes up
                      rf"{DOING}[^:]{{0,60}}$|"
                      # "Stock accuracy check: ...", "Quick question: ...", "Quick one: ...": a label for the request
                      r"(?:[a-z&-]+\s+){0,3}(?:check|question|query|request)$|(?:quick|short|small) (?:one|q)$|"
                      r"at a glance$|in (?:short|brief)$|"
                      # "Ticket from Kelso Mills' ops lead: ...", "A customer writes: ...": who passed the question on
                      r"(?:[\w'’-]+\s+){0,2}(?:ticket|e-?mail|message|call|note|request|complaint|query)s?\s+from\b|"
                      r"[^?]{0,60}\b(?:writes|wrote|emailed|e-mailed|mailed|forwarded)$|"
                      # "My manager asked me something I can't answer from memory: ...": who asked, not what
                      r"(?:my|our|the|a)\s+[\w-]+(?:\s+[\w-]+)?\s+(?:asked|asks|wants to know|wanted to know)\s+"
                      r"(?:me|us)?\s*(?:something|this|a question|one thing)\b[^?:]{0,50}$|"
                      # "Year over year: ...": how the sides are compared, said before them
                      r"(?:year|quarter|month)[- ](?:over|on)[- ](?:year|quarter|month)$|(?:yoy|qoq|mom)$|"
                      # "State the figure.": the request's verb and the answer's shape, nothing asked
                      r"(?:please )?(?:state|give|provide|quote|confirm) (?:me )?(?:the |a )?(?:figure|number|amount|"
                      r"value|answer|total)s?\.?$)", re.I)
#: Words quoted from someone else ('the customer says "why would we pay more?"'): what they asked, not the asker.
QUOTED = re.compile(r"[\"“][^\"”]{3,}[\"”]")
#: "for Ann's intake", "a one-liner for Ann": whom the asker works for, named in a preamble.
FOR_SOMEONE = re.compile(r"\b(?i:for)\s+([A-Z][\w-]*)(?:['’]s\b|\s*$)")
#: A preamble that says who passed the question on: "Ticket from X", "X's buyer emailed".
PASSED_ON = re.compile(r"\b(?:ticket|e-?mail|message|call|note|request|complaint|query)s?\s+from\b|"
                       r"\b(?:writes|wrote|emailed|e-mailed|mailed|forwarded)$", re.I)
#: The clause before a colon or a dash that opens a question.
LEAD = re.compile(r"^([^:?]{1,80}?)(?::|\s[-–—])\s+(?=\S)")
#: A preamble that says for whom or what the answer is made ("For Ann's 9am", "Can you pull together a one-liner for
#: Ann") or when it is needed ("Before the next renewal window"): when it names nothing but its audience, it leaves
#: the question.
FOR_WHOM = re.compile(r"^(?:(?:quick|short|small) (?:one|q|question) )?for\b|^(?:can|could|would) (?:you|someone)\b|"
                      r"^(?:before|ahead of|in time for) (?:the|my|our|a|an|this|next)\s", re.I)
#: "For the board pack I need ...", "can you tell me ...": how the request is framed, not what it asks.
REQUEST = re.compile(r"^\s*(?:(?:for|in) (?:the|my|our|a|an|[a-z][\w-]*['’]s) [\w\s-]{1,30}?,?\s+)?(?:i need|i'd need|i'd like|"
                     r"i would like|i'd love|i would love|i wonder|i want|please (?:give|tell|send) me|can you (?:please )?(?:tell|give|show) me|"
                     r"could you (?:please )?(?:tell|give|show) me|tell me)\s+(?:to know\s+)?|"
                     # an auditor's "Please confirm ...", "State the ...", "Check how much ...": the verb asks, no more ("reconcile" compares)
                     r"^\s*(?:please\s+|kindly\s+)?(?:confirm|state|check|verify|provide|give me|show me|let me know|name|"
                     r"identify|set out|calculate)\s+"
                     r"(?=(?:the|our|a|an|how|what|when|which|who|where|why|whether|if)\b|(?-i:[A-Z]))|"
                     r"^\s*(?:can|could) (?:you|someone|somebody|anyone|anybody) (?:please )?(?:explain|tell (?:me|us)|"
                     r"help me understand)\s+(?=(?:why|how|what|when|which|who|whether|if)\b)|"
                     r"^[^.?!]{0,80}?\b(?:is|are|was|were|keeps?|kept)\s+asking\s+(?:me\s+|us\s+)?(?:(?:whether|if)\s+|"
                     r"(?=(?:why|how|what|when|which|who)\b))|"
                     # "An engineer who got X last year asks whether ...": who asks is the scene, not the question
                     r"^[^.?!]{0,80}?\b(?:asks|asked|wonders|wondered|wants to know)\s+(?:me\s+|us\s+)?(?:whether|if)\s+",
                     re.I)
#: "According to the December 2024 all-hands, ..." names where to look, not something to compare.
SOURCE = re.compile(r"^\s*(?:according to|as (?:stated|reported|said|described) (?:in|by)|going (?:by|off)|judging by|"
                    r"based on|(?:by|under) the terms of|pursuant to|in accordance with|with reference to|as per|"
                    r"(?:kindly\s+)?(?:confirm|state),?\s+(?:in accordance with|according to|pursuant to|under))\s+(.+?),\s*|"
                    # "In Harwick's 2019 ferry report, what ...": a document named by its author, its year its own
                    r"^\s*in\s+((?:the\s+)?(?-i:[A-Z])[\w&-]*['’]s\s+[^,?]{0,40}?(?:report|survey|study|analysis|review|"
                    r"outlook|update|paper|article|newsletter|minutes|memo|forecast)),\s*", re.I)
#: A remark after the question that says why it is asked or thanks: "Just need the number for a cash-flow model."
_REMARK = re.compile(r"\?\s+(?:(?:i\s+)?(?:just|only)\s+(?:need|want)|i(?:\s+(?:want|need|would like)|['’]d like)\s+(?!to know\b)|"
                     r"thanks|thank you|sorry|apologies|"
                     r"cheers|(?:it'?s|this is) for|"
                     r"(?:i\s+)?need (?:it|this|that) for|"
                     # "?? trying to get my head around my accounts": what the asker is after
                     r"(?:just\s+)?(?:trying|hoping|wanting|looking|going) to)\b[^?]*$|"
                     # "... swapped out? Drafting the checklist here.": what the asker is doing
                     rf"\?\s+{DOING}[^?]*$|"
                     # "... need swapping? He wants to put it in their plan.", "? customer has a really big main",
                     # "? one of my team is flying out": a statement after the question says why it is asked
                     rf"\?\s+(?!(?:{WH_WORDS}|i|if|assuming|suppose|is|are|does|do|did|can|could|should|would|"
                     r"will|and|also|plus|give|list|state|name|tell|show|include|explain|add|compare|please)\b)(?:[\w'’-]+\s+){0,4}(?:wants?|needs?|is|"
                     r"are|was|were|has|have|had|says?|said|asked|mentioned|thinks?|plans?)\b[^?]*$", re.I)
#: "Give me the date of X, I need to plan deliveries around it.": why it is asked, after a comma; its words ask nothing.
_PURPOSE = re.compile(r",\s+(?:i\s+)?(?:just|only)\s+(?:want|need)\s+(?:a|an|the|it|this|that)\b[^?,;:]*[.?!]?\s*$|"
                      r",\s+(?:as\s+|because\s+|since\s+)?(?:i|we)\s+(?:need|want|have|must|would like|'d like|am trying|"
                      r"are trying|'m trying|'re trying)\s+to\s+(?!know\b|understand\b|find out\b|check\b|confirm\b|see\b|learn\b)"
                      r"(?![^?]*\b(?:what|which|who|when|where|why|how|whether)\b)[^?,;:]*[.?!]?\s*$", re.I)
#: "a punchy figure I can use in a product blurb": how the answer will be used and how it should sound ask nothing.
FOR_USE = re.compile(r"\s+(?:that\s+|which\s+)?(?:i|we)\s+(?:can|could|might|may)\s+(?:use|quote|put|cite|share)\b|"
                     # (not "in the July newsletter": a document that exists is a source)
                     r"\s+(?:in|for|on)\s+(?:a|an|my)\s+(?:[\w-]+\s+)?(?:blurb|brochure|slide|deck|post|copy|flyer|"
                     r"leaflet|newsletter|pitch|advert)\b|"
                     r"\b(?:punchy|catchy|snappy|headline|memorable|quotable|striking)\s+(?=(?:[\w-]+\s+)?(?:figure|number|"
                     r"stat|statistic|fact)s?\b)", re.I)
#: "What is the size of the market, according to the latest analyst report?": where to look, said last.
SOURCE_AFTER = re.compile(r",\s*(?:according to|as (?:stated|reported|said) (?:in|by))\s+([^,?]+?)\s*\?\s*$", re.I)
#: "Given that the ferry carried 900 cars, what ...?", "Given the ferry's record summer, how ...?", "Since we are
#: moving offices, where ...?": a premise stated before the question (a "since" naming a time, "since March", is the
#: question's period, not a premise).
PREMISE = re.compile(r"^(?:(?:given|considering|assuming|knowing|now) that|given(?=\s+(?:the|these|those|our|its|their)\s)|"
                     r"(?:since|because|as)(?!\s+when\b)"
                     # a clause about the asker's side with a verb of its own: "since finance is ...", "as we are ...";
                     # one about a named party ("since Harbor Mills is asking ...") names what the question is about
                     r"(?!\s+(?!I\b)(?-i:[A-Z]))"
                     r"(?=\s+(?:[^,\s]+\s+){0,5}?(?:am|is|are|was|were|will|have|has|need|needs|want|wants|plan|plans)\b))"
                     r"\s+([^,?]+?),\s+((?:[a-z]+\s+)?(?:what|which|who|"
                     r"how|when|where|why|is|are|was|were|does|do|did|can|could|should|would|will)\b[^.]*)$", re.I)
#: A long message that opens with the asker rather than the question: "sorry, late-night brain - ...".
_ABOUT_ME = re.compile(r"\s*(?:(?:sorry|ok(?:ay)?|so|hi|hey|honestly|um+|well)\b|i\b|i['’]m\b|i['’]ve\b|my\b|we['’]re\b|"
                       r"this is probably\b)", re.I)
#: Where the question starts inside it: "..., so basically how many ...", "... - what ...".
_ASK_STARTS = re.compile(r"(?:\bso|\bbut|\s[-–—]|,)\s+(?:(?:so|basically|really|just|honestly)\s+)*(?=(?:from\s+|in\s+)?"
                         r"(?:how|what|who|when|where|why|which\s+(?:[\w'-]+\s+){1,3}?(?:do|does|did|is|are|was|were|has|have|can)|"
                         r"is|are|does|do|can)\b)", re.I)  # (not the "which" of ", which feels ...")
#: What follows the question to explain or apologise: ", just so I can sketch ...", ", thanks and sorry again".
_AFTERWORD = re.compile(r",\s*(?:just so|so that|so I can|thanks|thank you|sorry|cheers|because I)\b[^?]*(?=\??\s*$)", re.I)


def named_source(question: str) -> str:
    """The document a question says to look in ("According to the minutes of the November meeting, ..." -> "the
    minutes of the November meeting"), in any of its sentences; "" when it names none."""
    for sentence in re.split(r"(?<=[.!?])\s+", question.strip()):
        m = SOURCE.match(sentence) or SOURCE_AFTER.search(sentence)
        if m:
            return next(g for g in m.groups() if g)
    return ""


def buried_ask(question: str) -> str:
    """A long message that talks about the asker first, with the question set off as a sentence of its own after
    that scene ("sorry, late-night brain - one of my leads called in sick, so from which day ...?" -> "sorry, ...
    called in sick. From which day ...?"), and the thanks or reasons after the question left out."""
    if len(question.split()) < 30 or not _ABOUT_ME.match(question):
        return question
    found = [m for m in _ASK_STARTS.finditer(question) if m.start() > 0]
    start = next((m for m in found if m[0].lower().startswith(("so", "but"))), found[0] if found else None)
    if not start or re.search(r"[.?!]", re.sub(r"\([^)]*\)", "", question[:start.start()]).rstrip(" .")):
        return question  # ("... (I think that's allowed to matter?) ...": an aside's question mark ends nothing)
    asked = _AFTERWORD.sub("", question[start.end():])
    return f"{question[:start.start()].rstrip(' ,-–—')}. {asked[:1].upper()}{asked[1:]}"


#: "... vs 2024. One decimal is fine.": how exact the answer may be, said last, asks nothing; nor does "...; need the
#: deltas." say more than the comparison before it.
_GOOD_ENOUGH = re.compile(r"(?<=[.?!])\s+(?:[\w$%-]+\s+){0,6}?(?:is|are|would be|will do)\s+(?:fine|ok(?:ay)?|enough|"
                          r"good enough|plenty)\b[^?]*$|[;,]\s*(?:i\s+|we\s+)?need\s+(?:the\s+)?(?:deltas?|differences?|"
                          r"gaps?)\s*[.!]?\s*$|"
                          # "... replaced the 2023 one. Give me the short version.": how long the answer may be
                          r"(?<=[.?!])\s+(?:please\s+)?(?:(?:just\s+)?(?:give|send|tell)\s+(?:me|us)|keep\s+it|make\s+it)\s+"
                          r"(?:the\s+|a\s+)?(?:short|brief|quick|rough|high[- ]level|one[- ]line)\b[^?]*$", re.I)
#: "1) ..., 2) ..., 3) ...": a request's numbered points.
_NUMBERED = re.compile(r"(?:^|(?<=[\s:,;.?]))\(?([1-9])[).]\s+")


#: "heading out to a flooded cellar tomorrow, which pump, the P-20 or the P-40 ...?": what the asker is doing, set
#: before a question that names its own things by a comma. It names nothing (no figure, code, name or period) and is
#: not a topic ("looking at the second half, ...", "training on the new tills, who pays?").
_DOING = re.compile(rf"^(?!(?:\w*thing|comparing|looking|regarding|concerning|considering|including|excluding|following|during|"
                    rf"using|assuming|given|taking|counting|talking|speaking|according|thinking|based)\b)[A-Za-z]+ing\b"
                    rf"(?:(?![^,?.!;:]*\b(?:quarter|half|year|month|{'|'.join(m[:3] for m in MONTHS)})[a-z]*\b)"
                    rf"[a-z' -]){{2,80}},\s+(?=(?:{WH_WORD}|is|are|do|does|can|could|should|will|would)\b)")


def unframed(question: str) -> str:
    """The question without the words that open a message ("ok so", "ticket #4471:", "driving over there later,"),
    a customer's quoted report before it unquoted ('"The kiln shows K-41." What does the code mean?')."""
    text = OPENER.sub("", question) or question
    doing = _DOING.match(text)
    text = text[doing.end():] if doing and re.search(r"\d|\b[A-Z]", text[doing.end() + 1:]) else text
    return re.sub(r"^[\"“]([^\"”]+?[.!?])[\"”]\s+(?=\S)", r"\1 ", text)


def without_remarks(question: str) -> str:
    """The question without what is said after it about why it is asked: "... over Q4? Just need the number for a
    model." asks only about Q4; nor an aside that says what it is not about ("(no competitor in this one)"), nor an
    apology that opens it ("sorry if obvious - ..."), how to round the figure ("to one decimal place"), what the
    records cover ("(which covers June 2024 to January 2025)") or since when the document asked about holds ("the
    leave policy in force since 1 March 2024")."""
    question = _DATED_DOCUMENT.sub(r"\1", SOURCE_ASIDE.sub(" ", _OPENER.sub("", question)))
    question = _PRECISION.sub(lambda m: "," if m[2] and not m[1] else "", question)  # (", to 1 dp," goes whole)
    return _CLOSING.sub("?", _GOOD_ENOUGH.sub("", _PURPOSE.sub("?", _REMARK.sub("?", _NOT_ABOUT.sub(" ", question)))))


#: An apology that opens the message: "sorry if obvious - ", "Apologies if this is a silly question: " (a plain "sorry,"
#: opens a long message that buries its question: see ``buried_ask``; a label, "quick one:", is read as a preamble).
_OPENER = re.compile(r"^\s*(?:sorry|apologies)\s+if\s+(?:this\s+is\s+|it['’]?s\s+|that['’]?s\s+)?(?:(?:a\s+)?(?:dumb|"
                     r"silly|stupid|basic|naive)(?:\s+question)?|obvious)\s*[-–—:,!.]\s*", re.I)
#: An aside that describes where the answer is kept, not what is asked: "(which covers June 2024 to mid-January
#: 2025)", "(it only goes back to 2023)".
SOURCE_ASIDE = re.compile(r"\s*\((?:which|that|it|this)\s+(?:only\s+)?(?:covers|spans|runs|starts|holds|contains|goes back|"
                           r"dates back|begins)\b[^()]*\)")
#: Since when a document holds, which picks the document and dates nothing asked of it: "the leave policy in force
#: since 1 March 2024", "the procurement policy effective 2 May 2024", "the handbook dated June 2023".
_DATED_DOCUMENT = re.compile(rf"\b((?:policy|policies|agreement|contract|rules?|guidelines?|handbook|manual|procedure|"
                             rf"regulations?|terms|code of conduct))\s*,?\s+(?:(?:that|which)\s+(?:is|was|has\s+been)\s+)?"
                             rf"(?:in\s+force|in\s+effect|effective|valid|applicable|dated|issued)\s+"
                             rf"(?:(?:since|from|as\s+of|on)\s+)?{WRITTEN_DATE}(?=[\s,])", re.I)
#: How a figure is to be rounded, which says nothing about what is asked: ", to one decimal place", "(to 2 dp)".
_PRECISION = re.compile(r"(,)?\s*\(?\s*(?:rounded\s+|correct\s+|given\s+)?to\s+(?:one|two|three|a single|[1-3]|the nearest)\s+"
                        r"(?:decimal(?:\s+places?)?|dp|d\.p\.|significant\s+figures?|whole\s+(?:number|percent)|"
                        r"(?:tenth|hundredth)\s+of\s+a\s+(?:percent|point))\s*\)?(\s*,)?(?=[\s.;?]|$)", re.I)


#: "... in each case? Could you compare the two for me?": a closing request that asks nothing the question did not.
_CLOSING = re.compile(r"\?\s+(?:so\s+)?(?:could|can|would) you (?:please\s+)?(?:compare|check|confirm|help|look into|tell me|"
                      r"clarify|explain|summari[sz]e)\b[^?.]{0,40}[?.]\s*$", re.I)


#: "(no Veltrix in this one)", "(no tender, no competitor involved)": an aside naming what the question is not about
#: (not "(not including VAT)", which says what to count).
_NOT_ABOUT = re.compile(r"\s*\((?:(?:no|not)\s[^()]*\b(?:involved|in this one|this time|here|at all)|(?:nothing to do with|"
                        r"not about)\s[^()]*)\)", re.I)


def listed_asks(text: str) -> str:
    """A request's numbered points, 1), 2), 3) in order, as asks set apart by semicolons ("the deltas: 1) revenue
    2025 vs 2024, 2) margin 2025 vs 2024" -> "the deltas: revenue 2025 vs 2024; margin 2025 vs 2024")."""
    marks = list(_NUMBERED.finditer(text))
    if len(marks) < 2 or [int(m[1]) for m in marks] != list(range(1, len(marks) + 1)):
        return text
    ends = [m.start() for m in marks[1:]] + [len(text)]
    asks = [text[m.end():end].strip(" ,;") for m, end in zip(marks, ends, strict=True)]
    head = text[:marks[0].start()]  # "I need the budget deltas:" heads the list and asks nothing the points do not
    head = "" if re.search(r":\s*$", head) and not re.search(rf"\b{WH_WORD}\b", head, re.I) else head
    return f"{head}{'; '.join(a.rstrip('?.') for a in asks)}?"


def without_scene(question: str, asked: str) -> str:
    """What ``question`` asks (``asked``, its analysed text) when the sentences before it only set a scene; "" when
    they name what is asked about: a premise ("Since I will be at the Rotterdam office, ...") or a party whose thing
    is asked for ("X is threatening a claim. What does their contract set?")."""
    if asked == question or PREMISE.match(" ".join(question.split())) or re.search(r"\b(?:their|its|his)\b",
                                                                                      asked, re.I):
        return ""
    return asked


#: "The leadership approved the X design in October. What stages does the final design specify?": a statement
#: that sets the scene, then the question.
STATEMENT = re.compile(r"^(.+[.!])\s+([A-Za-z][^.!?]*\??)$")
#: "ok so ...", "well, ...": words that open a chat message, not the question; "Item 4 - ...", "#2:": its number in
#: a checklist.
OPENER = re.compile(r"^(?:(?:ok(?:ay)?|so|well|hey|hi|hello|right|(?:quick|short|small) (?:one|q|question))\b[,!]?\s+)+|^(?:item|point|no\.|#)\s*\d{1,3}\s*(?:[-–—:.)]\s+)|"
                    # "ticket #4471: ...", "Case 20931 - ...": the request's number in another system, found in no document
                    r"^(?:ticket|case|incident|issue|bug)\s*(?:no\.?\s*|#\s*)?[A-Z]{0,5}-?\d{2,}\s*[-–—:.)]\s+",
                    re.I)
#: "The customer mounting the unit outside asks what rating it needs": who asks, then their question.
_REPORTED = re.compile(r"^([^.?!:]{3,80}?)\s+(?:asks|asked|wonders|wondered|wants to know)\s+(?:me\s+|us\s+)?"
                       r"((?:what|which|how|when|where|why|who)\b(?:(?!\s[-–—]\s)[^?.!])*)[.?]?$", re.I)  # (one clause)
#: "People will ask why X. What was the reasoning?": a question others are expected to ask, then a request for its
#: answer that asks nothing more.
_EXPECTED_ASK = re.compile(r"^(?:people|they|everyone|staff|managers|the team|someone|customers)\s+(?:will|may|might|would|"
                           r"keep|often|are going to)\s+(?:ask|be asking)\s+(?:me\s+|us\s+)?((?:what|which|how|when|where|why|"
                           r"who)\b[^.?!]*)[.?]\s*(?:(?:what|which) (?:was|is|were|are) (?:the|their) (?:reasoning|rationale|"
                           r"reasons?|explanation|thinking)\??)?\s*$", re.I)
#: "It is requested that X be confirmed": the formal request of a report, each thing to be stated an ask.
_REQUESTED = re.compile(r"^(?:it is (?:requested|asked)|(?:we|i) (?:request|ask)|kindly (?:ensure|arrange)) that\s+", re.I)
_TO_BE_STATED = re.compile(r"\s+be\s+(?:stated|confirmed|indicated|provided|given|set out|specified|reported|advised|"
                           r"clarified|explained|quantified)\b", re.I)


def plainly_asked(text: str) -> str:
    """A question written as a report of it, or as a formal request, in the form of a question: "A customer on the
    roof asks what rating it needs." -> "A customer on the roof. What rating it needs?" (the scene keeps scoping);
    "It is requested that X be confirmed, together with Y." -> "What is X, and what is Y?"."""
    reported = _REPORTED.match(text)
    if reported:
        return f"{reported[1]}. {reported[2][:1].upper()}{reported[2][1:]}?"
    expected = _EXPECTED_ASK.match(text)  # "People will ask why X. What was the reasoning?": why X (the reasoning)
    if expected:
        return f"{expected[1][:1].upper()}{expected[1][1:]}?"
    requested = _REQUESTED.match(text)
    if not requested:
        return text
    asks = re.split(r",?\s+(?:and that|together with|as well as|along with)\s+", _TO_BE_STATED.sub("", text[requested.end():]))
    return f"What is {', and what is '.join(a.strip(' .') for a in asks if a.strip(' .'))}?"
#: "even though it was the record quarter": what the asker finds surprising, not what is asked about.
CONCESSION = re.compile(r",?\s+\b(?:even though|even if|although|though|despite|in spite of)\b[^?;:]*", re.I)
#: "The gateways raised an error code - what does the manual say about it?": a statement, then its question (not
#: "the customer who placed the biggest order - when does their contract end?", which names a thing by what it did).
DASHED_STATEMENT = re.compile(r"^((?!(?:what|which|who|whom|whose|how|when|where|why)\b)(?:(?!\b(?:who|that|which|whose|"
                              r"behind)\b)[^?.!])+?)\s+[-–—]\s+((?:according to [^,?]{1,40},\s*)?(?:what|which|who|how|when|where|why|is|are|do|does|"
                              r"can|should)\b)", re.I)
