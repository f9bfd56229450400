"""The strategies row of each wire format: what the cross-format contracts draw from, and the examples they pin.

A cross-format contract states its rule once and draws from the row of the
format under test (the ``wire_format`` fixture): the turns and the cuts its
codec streams, the persisted rounds it stores, the wire histories a correct
renderer writes, what its provider refuses in a trimmed history, and the
pinned examples of its incidents, and a part per rule that reads its wire
(``tool_rounds``: the kernel's tool loop, how a request is read and judged).
A row holds only what its format has; a contract holds for every format
whose row has what it draws (:func:`having`; a part's field is named
``"tool_rounds.resumed"``), so a format without persisted rounds (chat) is
simply not in those contracts.

``STRATEGIES`` is keyed by the names of :data:`harness.adapter.FORMATS`; a
format shipped outside this package brings its row as an entry point of the
group ``harness.format_strategies`` (:func:`register` checks it).

Pinned examples run under their own format only: a contract takes
``@example(data=PINNED)``, and :meth:`WireFormat.cases` turns that stand-in
into the run's format's pinned examples (and a real ``st.data()`` into one
drawn sample). Derandomized runs (the gate, the mutant runs) thus run every
incident's fixed example under its format.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Callable

import pytest
from hypothesis import strategies as st

from harness.adapter import FORMATS, plugged
from harness.clip import clip_json
from harness.formats import FormatSpec, spec_for
from harness.plugin import run_state
from harness.plugin.contract_items import owner
from harness.rules import anthropic_history as anthropic_rules
from harness.rules import bedrock_history as bedrock_rules
from harness.rules import gemini_history as gemini_rules
from harness.rules import responses_history as responses_rules
from harness.testing import anthropic_history, anthropic_streams, chat_turns, gemini_history, gemini_streams
from harness.testing import anthropic_shapes, chat_shapes, gemini_shapes, responses_history, responses_shapes
from harness.testing import bedrock_history, bedrock_shapes, bedrock_streams, responses_streams
from harness.testing.anthropic_history import INTERLEAVED_ANSWER, INTERLEAVED_TURN
from harness.testing.anthropic_incident import PLAN, TURN as ANTHROPIC_TURN
from harness.testing.bedrock_incident import ANSWER as BEDROCK_ANSWER, PLAN as BEDROCK_PLAN, TURN as BEDROCK_TURN
from harness.testing.gemini_incident import (ONE_PER_CHUNK, PARALLEL, PARALLEL_PLAN, SIGNED_ANSWER, SIGNED_THOUGHT,
                                             WITH_IDS)
from harness.testing.responses_incident import CROSSED, EARLY, SUMMARIZED, TURN as RESPONSES_TURN
from harness.testing.scripted import ended
from harness.testing.shapes import Shape
from harness.wire.chat_turn import CALL, Cut
from harness.wire.gemini_events import Plan as GeminiPlan
from harness.wire.responses_events import Plan as ResponsesPlan


@dataclass(frozen=True)
class Source:
    """Samples of one kind: a strategy to draw them from, and the examples every run judges first."""

    strategy: st.SearchStrategy
    pinned: tuple = ()


@dataclass(frozen=True)
class Trimming:
    """What a trimmed history is judged by in one format: its broken pairs, its opening, its questions and model turns."""

    broken_pairs: Callable[[list], list[str]]  # the provider's refusals of a call without its answer, or the reverse
    bad_opening: Callable[[list], list[str]]  # the refusals of how the history starts (and, where ruled, alternates)
    is_question: Callable[[object], bool]  # a message, item or content that asks the model a question
    is_model: Callable[[object], bool]  # a message, item or content the model wrote


@dataclass(frozen=True)
class CutRound:
    """A tool loop whose first round holds a call with its arguments cut off, and how a history sending it back fails."""

    loop: list[dict]
    faults: Callable[[list, dict], list[str]]  # what is wrong with a history (the row's `history`) sending the round back


@dataclass(frozen=True)
class ToolRounds:
    """What a kernel's own tool loop, and the history it renders of persisted rounds, are judged by in one format."""

    loops: Source  # one turn's rounds of parallel calls and an answer (the format's tool-round ends drawn)
    question: str  # what the user asks in the scripted turn
    tools: tuple[str, ...]  # the tools the turn offers besides those its calls name
    history: Callable[[object], list]  # a request body's history: its messages, contents or input items
    body: Callable[[list], dict]  # a rendered history as the request body its provider judges
    model_turns: Callable[[list], list]  # the model's turns in a history, in order, each as it went back
    changes: Callable[[object, dict], dict[str, str]]  # how a model turn sent back differs from its round, by sub-rule
    # What is wrong with the answers: each round's calls answered after it, outputs[k][j] the texts call j of round
    # k may carry.
    unanswered: Callable[[list, list[dict], list[list[set[str]]]], list[str]]
    questions: Callable[[list], list]  # what the user's questions in a history say, in order
    # The provider's refusals of a body, given the turns it sent; where the provider's rules differ by model, as the
    # row's chosen model judges it (the model named in ``body``'s bodies)
    refusals: Callable[[object, list[dict]], list]
    by_place: bool = False  # answers pair with calls by their place (calls may lack ids): results kept in call order
    resumed: Source | None = None  # persisted rounds of one to three turns, the latest possibly inside its loop
    cut: CutRound | None = None  # a call cut off mid-arguments, where the format's streams can cut one


def _as_is(got: object, sent: dict) -> tuple[object, dict]:
    return got, sent


@dataclass(frozen=True)
class Strategies:
    """One format's row: every field but ``comparable`` is None where the format has no such thing."""

    streamed_turns: Source | None = None  # (turn, cut) pairs: a neutral turn and how the format's codec cuts it
    persisted_rounds: Source | None = None  # lists of neutral persisted rounds (harness.adapter) the format stores
    histories: Source | None = None  # wire histories of two or three turns, the latest possibly inside its tool loop
    trimming: Trimming | None = None
    shapes: tuple[Shape, ...] | None = None  # the layouts a streamed turn's body may also take (harness.testing.shapes)
    tool_rounds: ToolRounds | None = None  # the kernel's own tool loop and the history it renders
    # (decoded, sent) read as the shared block rules compare them: the values the format counts the same, spelled alike
    comparable: Callable[[object, dict], tuple[object, dict]] = _as_is


class _Pinned:
    """The stand-in for ``st.data()`` in ``@example(data=PINNED)``: "the run's format's pinned examples"."""

    def __repr__(self) -> str:
        return "PINNED (the pinned examples of the format under test)"


PINNED = _Pinned()


@dataclass(frozen=True)
class WireFormat:
    """The format under test: its row in :mod:`harness.formats` and its strategies."""

    spec: FormatSpec
    strategies: Strategies

    @property
    def name(self) -> str:
        return self.spec.name

    def cases(self, data: Any, kind: str) -> list:
        """The samples of ``kind`` one run judges: every pinned one for :data:`PINNED`, else one drawn from ``data``."""
        source = _part(self.strategies, kind)
        if source is None:
            raise LookupError(f"format {self.name!r} has no {kind}; a contract drawing them should be marked "
                              f"formats(*having({kind!r}))")
        return list(source.pinned) if data is PINNED else [data.draw(source.strategy, label=kind)]


# --- chat -------------------------------------------------------------------------------------------------------

def _incident_calls(count: int) -> dict:
    return {"blocks": [{"type": "tool_call", "id": f"call_{k:02d}", "name": f"tool_{k}",
                        "arguments": f'{{"city": "City {k}", "days": {k}}}'} for k in range(count)],
            "stop_reason": "tool_calls", "usage": None}


def _thirds(turn: dict) -> Cut:
    """Each call opened with ``""``, then its arguments in three pieces, one fragment per chunk (the incident's shape)."""
    deltas = []
    for k, call in enumerate(turn["blocks"]):
        args, third = call["arguments"], len(call["arguments"]) // 3
        deltas += [((CALL, k, piece),) for piece in ("", args[:third], args[third: 2 * third], args[2 * third:])]
    return Cut(deltas=tuple(deltas))


_TWELVE_CALLS = _incident_calls(12)  # sse-index-accumulation: every fragment of 12 parallel calls landed on the first
# Text in the same delta as a call's opening fragment, two calls' fragments in one delta, call 1 opened first;
# its usage chunk gives the stream shapes a usage to move.
_BESIDE = {"blocks": [{"type": "text", "text": "Reading both."},
                      {"type": "tool_call", "id": "call_a", "name": "read", "arguments": '{"path": "a"}'},
                      {"type": "tool_call", "id": "call_b", "name": "read", "arguments": '{"path": "b"}'}],
           "stop_reason": "tool_calls", "usage": {"prompt_tokens": 31, "completion_tokens": 17, "total_tokens": 48}}
_BESIDE_CUT = Cut(deltas=((("text", 0, "Reading "), (CALL, 1, '{"path": "b"}'), (CALL, 0, '{"path":')),
                          (("text", 0, "both."), (CALL, 0, ' "a"}'))))

CHAT = Strategies(
    streamed_turns=Source(chat_turns.streamed_turns(),
                          ((_TWELVE_CALLS, _thirds(_TWELVE_CALLS)), (_BESIDE, _BESIDE_CUT))),
    shapes=chat_shapes.SHAPES,
    comparable=lambda got, sent: (chat_turns.as_sent(got, sent), sent),
)


# --- the formats that persist neutral rounds: shared pieces -------------------------------------------------------

def _resumed(persisted_rounds: Callable[..., st.SearchStrategy], min_turns: int = 1) -> st.SearchStrategy[list]:
    """Persisted rounds of ``min_turns`` to three turns, the latest possibly cut inside its tool loop."""

    @st.composite
    def resumed(draw) -> list:
        events = draw(persisted_rounds(min_turns=min_turns, max_turns=3))
        starts = [k for k, e in enumerate(events) if e["input"]]
        return events[:draw(st.integers(starts[-1] + 1, len(events)))]

    return resumed()


def _histories(persisted_rounds: Callable[..., st.SearchStrategy], wire_history: Callable[[list], list]
               ) -> st.SearchStrategy[list]:
    """Two or three turns as the format's wire history, the latest possibly cut inside its tool loop."""
    return _resumed(persisted_rounds, min_turns=2).map(wire_history)


def _listed(key: str) -> Callable[[object], list]:
    """A request body's history under ``key``; none (``[]``) where the body holds no list there."""
    def history(body: object) -> list:
        found = body.get(key) if isinstance(body, dict) else None
        return found if isinstance(found, list) else []
    return history


def _placed(model_turns: Callable[[list], list[tuple[int, object]]]) -> Callable[[list], list]:
    return lambda history: [turn for _, turn in model_turns(history)]


def _refused(judge: Callable, body_key: str, rules: tuple, **body: Any) -> Callable[[list], list[str]]:
    return lambda messages: [r.message for r in judge({body_key: messages, **body}) if r.rule in rules]


def _opens_with(is_question: Callable[[object], bool]) -> Callable[[list], list[str]]:
    return lambda messages: [] if messages and is_question(messages[0]) else [
        f"the history should open with a user's question, not {clip_json(messages[:1], 300)}"]


def _role(role: str) -> Callable[[object], bool]:
    return lambda m: isinstance(m, dict) and m.get("role") == role


_STORED = 1731300000.0  # the timestamp of the pinned stored rounds
_LONG_QUESTION = "question 0: " + "word " * 1500  # a first turn long enough that a budget of 2500 drops it


# --- anthropic ----------------------------------------------------------------------------------------------------

def _anthropic_question(m: object) -> bool:
    return isinstance(m, dict) and m.get("role") == "user" and any(
        isinstance(b, dict) and b.get("type") == "text" for b in m.get("content") or ())


_ANTHROPIC_RESUMED = [
    {"input": "Weather and folder?", "blocks": INTERLEAVED_TURN["blocks"], "timestamp": _STORED,
     "tool_results": [{"tool_call_id": "toolu_03", "content": "a.txt"}, {"tool_call_id": "toolu_01", "content": ""},
                      {"tool_call_id": "toolu_02", "content": "12\u00b0C"}]},
    {"input": None, "blocks": INTERLEAVED_ANSWER["blocks"], "tool_results": [], "timestamp": _STORED},
    {"input": "And tomorrow?", "timestamp": _STORED + 60,
     "blocks": [INTERLEAVED_TURN["blocks"][0], {"type": "tool_call", "id": "toolu_11", "name": "get_weather",
                                                "arguments": '{"city":"Paris","day":"tomorrow"}'}],
     "tool_results": [{"tool_call_id": "toolu_11", "content": "rain"}]},
]

ANTHROPIC_ROUNDS = ToolRounds(
    loops=Source(st.booleans().flatmap(lambda thinking: anthropic_history.tool_loops(thinking)),
                 anthropic_history.RELAYED_LOOPS),
    question=anthropic_history.LOOP_QUESTION,
    tools=anthropic_history.TOOL_NAMES,
    history=_listed("messages"),
    body=lambda messages: {"model": anthropic_history.JUDGED_MODEL.example, "max_tokens": 4096, "messages": messages},
    model_turns=_placed(anthropic_history.model_messages),
    changes=anthropic_history.message_changes,
    unanswered=anthropic_history.answer_faults,
    questions=anthropic_history.questions,
    # Thinking enabled when the latest turn sent thought, none when it did not: as the client sends it; judged by
    # the row of a model that takes no assistant prefill (anthropic-prefill-refused).
    refusals=anthropic_history.request_refusals,
    # Two turns, the latest inside its loop; and the first turn alone, finished (its resuming request asks anew).
    resumed=Source(_resumed(anthropic_history.persisted_rounds), (_ANTHROPIC_RESUMED, _ANTHROPIC_RESUMED[:2])),
    # The incident's loop with its first call's partial_json cut off (anthropic-partial-json-dropped).
    cut=CutRound([{**anthropic_history.RELAYED_LOOPS[0][0], "blocks": [
        {**b, "arguments": '{"city":"Pa'} if b.get("id") == "toolu_01" else b
        for b in anthropic_history.RELAYED_LOOPS[0][0]["blocks"]]}, INTERLEAVED_ANSWER],
        anthropic_history.cut_call_faults),
)

ANTHROPIC = Strategies(
    streamed_turns=Source(anthropic_streams.streamed_turns(), ((ANTHROPIC_TURN, PLAN),)),
    tool_rounds=ANTHROPIC_ROUNDS,
    shapes=anthropic_shapes.SHAPES,
    persisted_rounds=Source(anthropic_history.persisted_rounds(), ([
        {"input": "Weather and folder?", "blocks": INTERLEAVED_TURN["blocks"], "timestamp": _STORED,
         "tool_results": [{"tool_call_id": "toolu_02", "content": ""}, {"tool_call_id": "toolu_01", "content": "18"},
                          {"tool_call_id": "toolu_03", "content": "a.txt"}]},
        {"input": None, "blocks": INTERLEAVED_ANSWER["blocks"], "tool_results": [], "timestamp": _STORED},
    ],)),
    histories=Source(_histories(anthropic_history.persisted_rounds, anthropic_history.wire_history), (
        anthropic_history.wire_history([
            {"input": _LONG_QUESTION, "blocks": INTERLEAVED_TURN["blocks"], "timestamp": 1.0,
             "tool_results": [{"tool_call_id": f"toolu_0{k}", "content": "line " * 200} for k in (3, 1, 2)]},
            {"input": None, "blocks": INTERLEAVED_ANSWER["blocks"], "tool_results": [], "timestamp": 1.0},
            {"input": "question 1", "timestamp": 2.0,
             "blocks": [INTERLEAVED_TURN["blocks"][0],
                        {"type": "tool_call", "id": "toolu_11", "name": "list_dir", "arguments": ""}],
             "tool_results": [{"tool_call_id": "toolu_11", "content": "b " * 300}]},
        ]),)),
    trimming=Trimming(
        _refused(anthropic_rules.refusals, "messages",
                 (anthropic_rules.TOOL_USE_ANSWERED, anthropic_rules.TOOL_RESULT_PAIRED)),
        _refused(anthropic_rules.refusals, "messages",
                 (anthropic_rules.FIRST_USER, anthropic_rules.ROLES_ALTERNATE, anthropic_rules.CONTENT_NON_EMPTY)),
        _anthropic_question, _role("assistant")),
)


# --- openai-responses ---------------------------------------------------------------------------------------------

_RESPONSES_ANSWER = {"blocks": [{"type": "text", "text": "Paris 18°C, Oslo 4°C.", "item_id": "msg_02"}],
                     "stop_reason": "completed", "usage": None}
_RESPONSES_QUESTION = "What is the weather in Paris and Oslo?"

RESPONSES_ROUNDS = ToolRounds(
    # The incident's round, as an endpoint that sends no usage.
    loops=Source(responses_history.tool_loops(), ([ended(RESPONSES_TURN, "openai-responses", 0), _RESPONSES_ANSWER],)),
    question=_RESPONSES_QUESTION,
    tools=("get_weather",),
    history=_listed("input"),
    body=lambda items: {"model": "gpt-5", "store": False, "input": items},
    model_turns=responses_history.model_runs,
    changes=responses_history.item_changes,
    unanswered=responses_history.answer_faults,
    questions=responses_history.questions,
    refusals=lambda body, sent: responses_rules.refusals(body, sent=sent),
    resumed=Source(_resumed(responses_history.persisted_rounds), ([
        {"input": _RESPONSES_QUESTION, "blocks": RESPONSES_TURN["blocks"], "timestamp": 1.0,
         "tool_results": [{"tool_call_id": "call_B", "name": "get_weather", "content": "4"},
                          {"tool_call_id": "call_A", "name": "get_weather", "content": ""}]},
        {"input": None, "blocks": _RESPONSES_ANSWER["blocks"], "tool_results": [], "timestamp": 1.0},
        {"input": "And tomorrow?", "blocks": [{**b, "item_id": b["item_id"] + "9"} for b in RESPONSES_TURN["blocks"][:1]] + [
            {"type": "tool_call", "id": "call_C", "name": "get_weather", "arguments": "", "item_id": "fc_C"}],
         "tool_results": [{"tool_call_id": "call_C", "name": "get_weather", "content": "rain"}], "timestamp": 2.0},
    ],)),
    # The incident's round with its second call's arguments cut off: the decoder hands the call over as streamed.
    cut=CutRound([{**RESPONSES_TURN, "blocks": [*RESPONSES_TURN["blocks"][:3],
                                                {**RESPONSES_TURN["blocks"][3], "arguments": '{"city":"Os'}]},
                  _RESPONSES_ANSWER], responses_history.cut_call_faults),
)

RESPONSES = Strategies(
    streamed_turns=Source(responses_streams.streamed_turns(interleaved=True, early=True),
                          ((RESPONSES_TURN, ResponsesPlan()), (RESPONSES_TURN, EARLY), (SUMMARIZED, CROSSED))),
    tool_rounds=RESPONSES_ROUNDS,
    shapes=responses_shapes.SHAPES,
    persisted_rounds=Source(responses_history.persisted_rounds(), ([
        {"input": "Paris and Oslo?", "blocks": RESPONSES_TURN["blocks"], "timestamp": _STORED,
         "tool_results": [{"tool_call_id": "call_B", "name": "get_weather", "content": "4"},
                          {"tool_call_id": "call_A", "name": "get_weather", "content": ""}]},
        {"input": None, "blocks": [{"type": "text", "text": "", "item_id": "msg_02"}], "tool_results": [],
         "timestamp": _STORED},
    ],)),
    histories=Source(_histories(responses_history.persisted_rounds, responses_history.wire_input), (
        responses_history.wire_input([
            {"input": _LONG_QUESTION, "blocks": RESPONSES_TURN["blocks"], "timestamp": 1.0,
             "tool_results": [{"tool_call_id": f"call_{k}", "name": "get_weather", "content": "line " * 200}
                              for k in "BA"]},
            {"input": None, "blocks": [{"type": "text", "text": "Paris 18, Oslo 4.", "item_id": "msg_02"}],
             "tool_results": [], "timestamp": 1.0},
            {"input": "question 1", "timestamp": 2.0,
             "blocks": [{**RESPONSES_TURN["blocks"][0], "item_id": "rs_11"},
                        {"type": "tool_call", "id": "call_C", "name": "list_dir", "arguments": "", "item_id": "fc_C"}],
             "tool_results": [{"tool_call_id": "call_C", "name": "list_dir", "content": "b " * 300}]},
        ]),)),
    trimming=Trimming(
        _refused(responses_rules.refusals, "input",
                 (responses_rules.OUTPUT_ANSWERS_CALL, responses_rules.REASONING_FOLLOWED), store=False),
        _opens_with(responses_history.is_question), responses_history.is_question,
        lambda i: not (responses_history.is_question(i) or responses_history.is_output(i))),
)


# --- gemini -------------------------------------------------------------------------------------------------------

def _gemini_question(c: object) -> bool:
    return isinstance(c, dict) and c.get("role") == "user" and any(
        isinstance(p, dict) and "text" in p for p in gemini_rules.parts_of(c))


_PARALLEL_QUESTION = "What is the weather in Zürich and Oslo, and the time?"  # the Gemini and Bedrock incidents'

GEMINI_ROUNDS = ToolRounds(
    # The incident's round as an endpoint that sends no usage; the same calls with ids.
    loops=Source(gemini_history.tool_loops(), ([ended(PARALLEL, "gemini", 0), SIGNED_ANSWER], [WITH_IDS, SIGNED_ANSWER])),
    question=_PARALLEL_QUESTION,
    tools=(),
    history=_listed("contents"),
    body=lambda contents: {"contents": contents},
    model_turns=_placed(gemini_history.model_contents),
    changes=gemini_history.content_changes,
    unanswered=gemini_history.answer_faults,
    questions=gemini_history.questions,
    refusals=lambda body, sent: gemini_rules.refusals(body, sent=sent),
    by_place=True,
    resumed=Source(_resumed(gemini_history.persisted_rounds), ([
        {"input": _PARALLEL_QUESTION, "blocks": PARALLEL["blocks"], "timestamp": 1.0,
         "tool_results": gemini_history.results_for(PARALLEL, ["12", "4", ""])},
        {"input": None, "blocks": SIGNED_ANSWER["blocks"], "tool_results": [], "timestamp": 1.0},
        {"input": "And tomorrow?", "blocks": WITH_IDS["blocks"], "timestamp": 2.0,
         "tool_results": gemini_history.results_for(WITH_IDS, ["rain", "snow", "09:00"])},
    ],)),
)

GEMINI = Strategies(
    tool_rounds=GEMINI_ROUNDS,
    streamed_turns=Source(gemini_streams.streamed_turns(), (
        (PARALLEL, PARALLEL_PLAN), (PARALLEL, ONE_PER_CHUNK), (WITH_IDS, ONE_PER_CHUNK),
        (SIGNED_ANSWER, GeminiPlan(groups=(2, 1))), (SIGNED_ANSWER, GeminiPlan(groups=(2, 1), signature_only=True)),
        (SIGNED_THOUGHT, GeminiPlan(groups=(1, 1))),
        # gemini-stream-drops-calls behind a relay: chunks without the optional role and index.
        (PARALLEL, GeminiPlan(groups=(1, 1, 3), bare_candidates=True)))),
    shapes=gemini_shapes.SHAPES,
    persisted_rounds=Source(gemini_history.persisted_rounds(), ([
        {"input": "Zürich, Oslo, time?", "blocks": PARALLEL["blocks"], "timestamp": _STORED,
         "tool_results": gemini_history.results_for(PARALLEL, ["12", "", "09:00"])},
        {"input": None, "blocks": SIGNED_ANSWER["blocks"], "tool_results": [], "timestamp": _STORED},
    ],)),
    histories=Source(_histories(gemini_history.persisted_rounds, gemini_history.wire_history), (
        gemini_history.wire_history([
            {"input": _LONG_QUESTION, "blocks": PARALLEL["blocks"], "timestamp": 1.0,
             "tool_results": gemini_history.results_for(PARALLEL, ["line " * 200] * 3)},
            {"input": None, "blocks": SIGNED_ANSWER["blocks"], "tool_results": [], "timestamp": 1.0},
            {"input": "question 1", "blocks": WITH_IDS["blocks"], "timestamp": 2.0,
             "tool_results": gemini_history.results_for(WITH_IDS, ["b " * 300] * 3)},
        ]),)),
    trimming=Trimming(
        _refused(gemini_rules.refusals, "contents", (gemini_rules.RESPONSES_COUNTED, gemini_rules.CALL_TURN_PLACED)),
        _opens_with(_gemini_question), _gemini_question, _role("model")),
    comparable=gemini_streams.comparable,
)


# --- bedrock ------------------------------------------------------------------------------------------------------

BEDROCK_ROUNDS = ToolRounds(
    loops=Source(bedrock_history.tool_loops(), ([ended(BEDROCK_TURN, "bedrock", 0), BEDROCK_ANSWER],)),
    question=_PARALLEL_QUESTION,
    tools=(),
    history=_listed("messages"),
    body=lambda messages: {"messages": messages, "toolConfig": {"tools": []}},
    model_turns=_placed(bedrock_history.model_messages),
    changes=bedrock_history.message_changes,
    unanswered=bedrock_history.answer_faults,
    questions=bedrock_history.questions,
    refusals=lambda body, sent: bedrock_rules.refusals(body, sent=sent),
    resumed=Source(_resumed(bedrock_history.persisted_rounds), ([
        {"input": _PARALLEL_QUESTION, "blocks": BEDROCK_TURN["blocks"], "timestamp": 1.0,
         "tool_results": bedrock_history.results_for(BEDROCK_TURN, ["12", "4", ""])},
        {"input": None, "blocks": BEDROCK_ANSWER["blocks"], "tool_results": [], "timestamp": 1.0},
        {"input": "And tomorrow?", "blocks": BEDROCK_TURN["blocks"][2:5], "timestamp": 2.0,
         "tool_results": bedrock_history.results_for({"blocks": BEDROCK_TURN["blocks"][2:5]}, ["rain"])},
    ],)),
)

BEDROCK = Strategies(
    streamed_turns=Source(bedrock_streams.streamed_turns(), ((BEDROCK_TURN, BEDROCK_PLAN),)),
    tool_rounds=BEDROCK_ROUNDS,
    shapes=bedrock_shapes.SHAPES,
    persisted_rounds=Source(bedrock_history.persisted_rounds(), ([
        {"input": "Zürich, Oslo, time?", "blocks": BEDROCK_TURN["blocks"], "timestamp": _STORED,
         "tool_results": bedrock_history.results_for(BEDROCK_TURN, ["12", "", "14:05"])},
        {"input": None, "blocks": BEDROCK_ANSWER["blocks"], "tool_results": [], "timestamp": _STORED},
    ],)),
    histories=Source(_histories(bedrock_history.persisted_rounds, bedrock_history.wire_history), (
        bedrock_history.wire_history([
            {"input": _LONG_QUESTION, "blocks": BEDROCK_TURN["blocks"], "timestamp": 1.0,
             "tool_results": bedrock_history.results_for(BEDROCK_TURN, ["line " * 200] * 3)},
            {"input": None, "blocks": BEDROCK_ANSWER["blocks"], "tool_results": [], "timestamp": 1.0},
            {"input": "question 1", "timestamp": 2.0,
             "blocks": [{"type": "tool_call", "id": "tooluse_11", "name": "list_dir", "arguments": ""}],
             "tool_results": [{"tool_call_id": "tooluse_11", "name": "list_dir", "content": "b " * 300}]},
        ]),)),
    trimming=Trimming(
        _refused(bedrock_rules.refusals, "messages", (bedrock_rules.TOOL_USE_ANSWERED, bedrock_rules.TOOL_RESULT_PAIRED),
                 toolConfig={"tools": []}),
        _refused(bedrock_rules.refusals, "messages", (bedrock_rules.FIRST_USER, bedrock_rules.ROLES_ALTERNATE)),
        bedrock_history.is_question, _role("assistant")),
    comparable=bedrock_streams.comparable,
)


STRATEGIES: dict[str, Strategies] = {"chat": CHAT, "anthropic": ANTHROPIC, "openai-responses": RESPONSES,
                                     "gemini": GEMINI, "bedrock": BEDROCK}
_KINDS = tuple(f.name for f in fields(Strategies) if f.name != "comparable")
_PART_KINDS = tuple(f"tool_rounds.{f.name}" for f in fields(ToolRounds))


GROUP = "harness.format_strategies"  # a format shipped outside this package: its strategies row, by entry point


def register(name: str, strategies: Strategies) -> None:
    """Add the strategies row of ``name``, a format the table (:mod:`harness.formats`) already has."""
    if name not in FORMATS:
        raise ValueError(f"format {name!r} has no row in harness.formats; give its FormatSpec first")
    if not isinstance(strategies, Strategies):
        raise TypeError(f"the strategies row of {name!r} is {strategies!r}; expected a Strategies")
    if name in STRATEGIES:
        raise ValueError(f"format {name!r} already has a strategies row")
    STRATEGIES[name] = strategies


for _name, _row in plugged(GROUP).items():
    register(_name, _row)


def having(*kinds: str) -> tuple[str, ...]:
    """The formats whose row has every one of ``kinds`` (the ``formats`` marker of a contract that draws them); a kind
    may name a part's field: ``"tool_rounds.resumed"``."""
    unknown = [k for k in kinds if k not in _KINDS and k not in _PART_KINDS]
    if unknown:
        raise ValueError(f"no strategies field {unknown}; the fields are {', '.join(_KINDS + _PART_KINDS)}")
    return tuple(name for name, row in STRATEGIES.items() if all(_part(row, k) is not None for k in kinds))


def _part(row: Strategies, kind: str) -> object:
    """A field of ``row``, or of one of its parts (``"tool_rounds.resumed"``); None where the row lacks it."""
    found: object = row
    for name in kind.split("."):
        found = getattr(found, name, None)
        if found is None:
            return None
    return found


def wire_format_of(name: str) -> WireFormat:
    """The format ``name`` as a contract sees it; a format without a strategies row is a KeyError naming the rows."""
    if name not in STRATEGIES:
        raise KeyError(f"format {name!r} has no strategies row (harness.testing.formats.register); "
                       f"rows: {', '.join(STRATEGIES)}")
    return WireFormat(spec_for(name), STRATEGIES[name])


def _under_test(request: pytest.FixtureRequest) -> WireFormat:
    found = owner(request)
    loaded = found.harness_loaded(request.config) if found is not None else run_state(request.config).adapter()
    return wire_format_of(loaded.format)


# The fixture the cross-format contracts import: the session's adapter's format. An AdapterContracts
# class serves its own adapter's (harness.testing.contracts), per class.
wire_format = pytest.fixture(scope="session", name="wire_format")(_under_test)


def class_fixture() -> Any:
    """``wire_format`` for an :class:`harness.testing.AdapterContracts` class: its own adapter's format."""

    def fixture(cls, request: pytest.FixtureRequest) -> WireFormat:
        return _under_test(request)

    fixture.__name__ = "wire_format"
    return pytest.fixture(scope="class", name="wire_format")(classmethod(fixture))
