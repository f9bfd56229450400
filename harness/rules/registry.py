"""Every rule the loopback provider and the probe judge a request by: one name, one level, one title each.

The provider profiles name the rules a request breaks, the probe reports a
check per rule, and ``docs/rules.md`` lists them with the contracts that hold
an adapter to the same rule; all three read this table, so a rule cannot be
called two things or sit at two levels. A level is one of
:data:`harness.rules.levels.LEVELS`.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Rule:
    """A rule by its stable name; ``contracts``: the contract modules that judge an adapter by it too."""

    name: str
    level: str
    title: str
    contracts: tuple[str, ...] = ()


_PAIRING_CONTRACTS = ("test_batch_pairing", "test_capability_chain", "test_transport_delivery",
                      "test_transport_streams", "test_trimming_pairs", "test_turn_rounds")
_REASONING_CONTRACTS = ("test_history_replay", "test_reasoning_eras", "test_reasoning_round_trip")

_ANTHROPIC_ROLES = ("test_anthropic_history_render", "test_trimming_exchanges")
_ANTHROPIC_PAIRING = ("test_tool_rounds", "test_anthropic_tool_results", "test_anthropic_history_render",
                      "test_trimming_exchanges")
_RESPONSES_REPLAY = ("test_responses_replay_items", "test_tool_rounds")
_RESPONSES_PAIRING = (*_RESPONSES_REPLAY, "test_trimming_exchanges")
_RESPONSES_STORE = ("test_responses_replay_items", "test_tool_rounds", "test_responses_store_include",
                    "test_responses_stream_items", "test_rounds_cold_store")
_GEMINI_CONTENT = ("test_gemini_model_content", "test_gemini_replay_chain", "test_tool_rounds")
_GEMINI_PAIRING = (*_GEMINI_CONTENT, "test_trimming_exchanges")
_GEMINI_SIGNATURES = ("test_gemini_model_content", "test_gemini_replay_chain", "test_tool_rounds",
                      "test_gemini_stream_parts", "test_rounds_cold_store")

_BEDROCK_ROUNDS = ("test_tool_rounds", "test_trimming_exchanges")
_BEDROCK_BLOCKS = ("test_bedrock_messages", "test_tool_rounds")
_ANTHROPIC_THINKING = ("test_anthropic_message_blocks", "test_tool_rounds", "test_anthropic_history_render",
                       "test_anthropic_replay_chain")

RULES: dict[str, Rule] = {rule.name: rule for rule in (
    # Checked by the provider profiles on every request.
    Rule("body-not-json", "wire", "the request body is a JSON object"),
    Rule("messages-missing", "wire", "the body has a 'messages' list (chat completions, Anthropic Messages)"),
    Rule("input-missing", "wire", "the body has an 'input': a string or a list of items (OpenAI Responses)"),
    Rule("contents-missing", "wire", "the body has a 'contents' list (Gemini)"),
    Rule("unanswered-tool-calls", "wire", "every tool call is answered by a tool message right after it",
         _PAIRING_CONTRACTS),
    Rule("orphan-tool-message", "wire", "no tool message without the call it answers, none answering it twice",
         _PAIRING_CONTRACTS),
    Rule("unknown-argument", "wire", "no top-level argument the API does not have (thinking, extra_body)"),
    Rule("unknown-message-field", "provider", "no message key OpenAI's schema does not have (reasoning_content)"),
    Rule("reasoning-missing", "provider", "reasoning_content sent back where the era requires it",
         _REASONING_CONTRACTS),
    Rule("reasoning-sent-back", "provider", "no reasoning_content sent back where the era forbids it",
         _REASONING_CONTRACTS),
    Rule("thinking-switch-nested", "provider", "the thinking switch at the top level of the body",
         ("test_thinking_switch",)),
    Rule("tool-choice-in-thinking-mode", "provider", "no forced tool_choice in thinking mode"),
    Rule("tools-beside-effort", "provider", "no function tools beside a reasoning_effort to the models that refuse "
         "the pair (OpenAI chat, by model)", ("test_chat_effort_beside_tools",)),
    Rule("call-id-shape", "provider", "every tool call id one the model takes (Mistral's models: nine letters and "
         "digits)", ("test_chat_call_ids",)),
    Rule("reasoning-dialect-kept", "provider", "an endpoint's opaque reasoning values back unchanged where they came "
         "(OpenRouter reasoning_details, Google extra_content)", ("test_chat_reasoning_dialects",)),
    Rule("thinking-form-of-model", "provider", "thinking in a form the model takes (Anthropic, by model: adaptive, "
         "budget, disabled)", ("test_anthropic_thinking_switch",)),
    Rule("prefill-of-model", "provider", "no assistant prefill (the last message the assistant's) to a model that "
         "takes none (Anthropic, by model: 4.6 and later)", ("test_tool_rounds",)),
    # Checked by the probe on a whole session.
    Rule("agent-finished", "wire", "the agent finished every turn (exit status 0)"),
    Rule("calls-carried", "wire", "the follow-up request carries every streamed call with its id, name and "
         "arguments", ("test_transport_streams", "test_sse_index_accumulation")),
    Rule("calls-structured", "policy", "tool rounds are replayed as tool_calls and tool messages, not as text "
         "(a choice of style)"),
    Rule("turn-ends-in-text", "policy", "after a tool round the agent asks the model again, and ends on its plain "
         "text (a choice of style: some agents end through a final-answer tool)"),
    Rule("text-carried", "wire", "each answer streamed comes back verbatim as its assistant message in later "
         "requests", ("test_turn_words",)),
    Rule("reasoning-carried", "provider", "each round's own reasoning goes back beside it (DeepSeek, by era)",
         ("test_reasoning_round_trip", "test_reasoning_attribution")),
    Rule("history-replayed", "wire", "the next turn's first request replays the earlier turns: prompts, calls, "
         "results, answers", ("test_history_replay",)),
    Rule("effort-word", "wire", "reasoning_effort, when sent, is a word the format defines", ("test_effort_ladder",)),
    Rule("deepseek-effort-word", "provider", "reasoning_effort, when sent, is a word DeepSeek reads",
         ("test_effort_ladder",)),
    Rule("error-not-persisted", "wire", "a stream that ended in an error is never replayed as the model's answer",
         ("test_stream_end",)),
    # Anthropic Messages: what the API refuses in a body (harness.rules.anthropic_history).
    Rule("anthropic-message-roles", "wire", "every message is a user's or an assistant's; the system prompt is the "
         "top-level system field", _ANTHROPIC_ROLES),
    Rule("anthropic-first-message-user", "wire", "the first message is a user's", _ANTHROPIC_ROLES),
    Rule("anthropic-roles-alternate", "wire", "user and assistant messages alternate", _ANTHROPIC_ROLES),
    Rule("anthropic-content-non-empty", "wire", "every message but a final assistant one has content",
         ("test_trimming_exchanges",)),
    Rule("anthropic-text-non-empty", "wire", "no empty text block",
         ("test_anthropic_message_blocks", "test_anthropic_tool_results")),
    Rule("anthropic-redacted-data", "wire", "a redacted_thinking block carries its data",
         ("test_anthropic_message_blocks", "test_rounds_cold_store")),
    Rule("anthropic-tool-use-answered", "wire", "every tool_use is answered by a tool_result opening the next "
         "message", _ANTHROPIC_PAIRING),
    Rule("anthropic-tool-result-paired", "wire", "every tool_result answers a tool_use of the message before it",
         _ANTHROPIC_PAIRING),
    Rule("anthropic-tool-turn-starts-with-thinking", "wire", "with thinking enabled the open tool turn starts with "
         "its thinking", ("test_tool_rounds", "test_anthropic_history_render")),
    Rule("anthropic-no-thinking-when-disabled", "wire", "with thinking disabled the open assistant message holds "
         "no thinking", ("test_anthropic_thinking_switch",)),
    Rule("anthropic-thinking-unmodified", "wire", "the latest assistant message's thinking comes back as sent: "
         "text, signature and data byte for byte, in place", _ANTHROPIC_THINKING),
    Rule("anthropic-thinking-signed", "wire", "every thinking block of the latest assistant message has its "
         "signature", ("test_anthropic_message_blocks", "test_rounds_cold_store")),
    Rule("anthropic-earlier-turns-unchanged", "provider", "earlier assistant messages' thinking comes back as sent "
         "(newer Claude models)", ("test_anthropic_preserved_thinking",)),
    Rule("anthropic-thinking-text", "wire", "a thinking block carries its thinking field", _ANTHROPIC_THINKING),
    Rule("anthropic-thinking-first", "wire", "an open assistant message holding thinking starts with a thinking block",
         _ANTHROPIC_THINKING),
    # OpenAI Responses: what the API refuses in a request's input (harness.rules.responses_history).
    Rule("responses-reasoning-followed", "wire", "a reasoning item goes back followed by the item it came before: "
         "an assistant message or a function_call", _RESPONSES_PAIRING),
    Rule("responses-reasoning-summary", "wire", "every reasoning item sent back carries its summary ([] when empty)",
         _RESPONSES_REPLAY),
    Rule("responses-output-answers-call", "wire", "every function_call_output answers a function_call before it",
         _RESPONSES_PAIRING),
    Rule("responses-reasoning-not-stored", "wire", "under store: false a reasoning item goes back whole, with its "
         "encrypted_content, never as a bare id", _RESPONSES_STORE),
    Rule("responses-call-with-reasoning", "wire", "a function call made after reasoning goes back with that "
         "reasoning item before it", _RESPONSES_REPLAY),
    Rule("responses-encrypted-unchanged", "wire", "a reasoning item's encrypted_content comes back byte for byte",
         _RESPONSES_STORE),
    Rule("responses-message-with-reasoning", "wire", "an assistant message sent back with its id comes after the "
         "reasoning item it followed", _RESPONSES_REPLAY),
    # Gemini generateContent: what the API refuses in a body (harness.rules.gemini_history).
    Rule("gemini-function-call-named", "wire", "every functionCall part has a name", _GEMINI_CONTENT),
    Rule("gemini-text-non-empty", "wire", "no empty text part, unless it carries a thoughtSignature",
         _GEMINI_CONTENT),
    Rule("gemini-call-turn-after-user", "wire", "a model content with function calls comes right after a user "
         "content (parallel calls stay in one content)", _GEMINI_PAIRING),
    Rule("gemini-function-responses-counted", "wire", "the content after a call turn holds one functionResponse "
         "per functionCall", ("test_gemini_function_responses", "test_gemini_replay_chain", "test_tool_rounds",
                              "test_trimming_exchanges")),
    Rule("gemini-function-call-signed", "wire", "every call turn of the current turn carries its thoughtSignature "
         "on its first functionCall part (Gemini 3)", _GEMINI_SIGNATURES),
    Rule("gemini-signatures-as-sent", "wire", "every thoughtSignature comes back byte for byte on the part it came "
         "on; none moved, none added", _GEMINI_SIGNATURES),
    # Emitted streams: the layout each format's provider emits (harness.rules.<format>_stream), judged by
    # `harness conform` event by event; the contracts named hold a client to reading the same layout.
    Rule("emitter-answered", "wire", "every request of the scripted conversation (tool rounds replayed whole) is "
         "answered 200 with a stream in the format's framing"),
    Rule("emitter-decodes", "wire", "the format's reference client decodes every stream to a whole turn",
         ("test_stream_turns",)),
    Rule("gateway-blocks-kept", "wire", "a gateway emits the blocks its upstream streamed, in order: no reasoning "
         "dropped or turned into text, no turn lost", ("test_stream_turns",)),
    Rule("gateway-texts-kept", "wire", "a gateway emits each text and reasoning text its upstream streamed",
         ("test_stream_turns",)),
    Rule("gateway-opaque-kept", "wire", "a gateway emits each opaque value (signature, redacted data, thought "
         "signature) byte for byte", ("test_stream_turns", "test_anthropic_opaque_bytes")),
    Rule("gateway-calls-kept", "wire", "a gateway emits each call its upstream streamed, name and arguments, in "
         "order", ("test_stream_turns",)),
    Rule("chat-stream-chunks", "wire", "every chunk a chat.completion.chunk of the stream's one id, with a choices "
         "list", ("test_stream_envelope", "test_stream_choices")),
    Rule("chat-stream-role", "wire", "each choice's first delta carries the assistant role", ("test_stream_shapes",)),
    Rule("chat-stream-call-fragments", "wire", "a call's first fragment names it (index, id, type, name), its later "
         "ones carry only its index; each call its own index", ("test_sse_index_accumulation", "test_stream_shapes")),
    Rule("chat-stream-finish", "wire", "each choice finishes once and sends nothing after its finish_reason",
         ("test_stream_end",)),
    Rule("chat-stream-done", "wire", "data: [DONE] ends the body", ("test_stream_end",)),
    Rule("anthropic-stream-events", "wire", "every event a JSON object with its type",
         ("test_anthropic_stream_data_only",)),
    Rule("anthropic-stream-message-start", "wire", "message_start opens the stream with the message's id, type, "
         "role, model, empty content, null stop_reason and its usage", ("test_anthropic_stream_usage",)),
    Rule("anthropic-stream-blocks", "wire", "blocks numbered from 0, each opened empty, filled by its deltas and "
         "stopped before message_delta", ("test_anthropic_stream_blocks", "test_anthropic_stream_interleaved")),
    Rule("anthropic-stream-end", "wire", "one message_delta (stop reason, usage), then message_stop last",
         ("test_anthropic_stream_stop_reason", "test_anthropic_stream_usage")),
    Rule("responses-stream-events", "wire", "every event a JSON object with its type",
         ("test_responses_stream_items",)),
    Rule("responses-stream-sequence", "wire", "every event carries its sequence_number, one more than the event "
         "before (Open Responses)", ("test_responses_stream_translated",)),
    Rule("responses-stream-created", "wire", "response.created opens the stream (Open Responses)",
         ("test_responses_stream_translated",)),
    Rule("responses-stream-terminal", "wire", "one terminal event ends the stream (response.completed, .failed, "
         ".incomplete, or error), its response's status saying the same (Open Responses)",
         ("test_responses_stream_end",)),
    Rule("responses-stream-item-identity", "wire", "every event of an item names it by item_id and output_index, "
         "as its output_item.added placed it", ("test_responses_stream_items", "test_responses_stream_translated")),
    Rule("responses-stream-item-status", "wire", "message and call items are added in_progress and done completed "
         "(Open Responses)", ("test_responses_stream_items",)),
    Rule("responses-stream-deltas", "wire", "each item opens empty and its values stream as deltas that join to the "
         "value it closes with", ("test_responses_stream_items", "test_responses_stream_translated")),
    Rule("responses-stream-parts", "wire", "each part of a message or reasoning summary opens and closes with its "
         "part events", ("test_responses_stream_translated",)),
    Rule("responses-stream-output", "wire", "response.completed repeats every item as it closed, and only those",
         ("test_responses_stream_translated",)),
    Rule("responses-stream-usage", "wire", "response.completed carries the usage: input, output and total tokens",
         ("test_responses_stream_items",)),
    Rule("gemini-stream-chunks", "wire", "every chunk carries the stream's one responseId, its modelVersion and "
         "candidates", ("test_gemini_stream_relays",)),
    Rule("gemini-stream-content", "wire", "a candidate's content holds parts", ("test_gemini_stream_relays",)),
    Rule("gemini-stream-finish", "wire", "the finishReason comes once, on the last chunk, never "
         "FINISH_REASON_UNSPECIFIED", ("test_gemini_stream_end",)),
    Rule("gemini-stream-usage", "wire", "the last chunk carries the turn's usageMetadata", ("test_gemini_stream_end",)),
    Rule("gemini-signature-base64", "wire", "every thoughtSignature is base64 (a proto bytes field)",
         _GEMINI_SIGNATURES),
    # AWS Bedrock Converse: what the API refuses in a request's messages (harness.rules.bedrock_history).
    Rule("bedrock-first-message-user", "wire", "the first message is a user's", _BEDROCK_ROUNDS),
    Rule("bedrock-roles-alternate", "wire", "user and assistant messages alternate", _BEDROCK_ROUNDS),
    Rule("bedrock-tool-results-alone", "wire", "a user message holding toolResult blocks holds no other block",
         _BEDROCK_ROUNDS),
    Rule("bedrock-tool-use-answered", "wire", "every toolUse is answered by a toolResult with its id in the next "
         "message", _BEDROCK_ROUNDS),
    Rule("bedrock-tool-result-paired", "wire", "every toolResult answers a toolUse of the message before it",
         _BEDROCK_ROUNDS),
    Rule("bedrock-tool-result-status", "wire", "a toolResult's status is success or error, its content not empty "
         "under error", _BEDROCK_BLOCKS),
    Rule("bedrock-text-non-empty", "wire", "no blank text block", _BEDROCK_BLOCKS),
    Rule("bedrock-tool-use-id", "wire", "every toolUseId matches [a-zA-Z0-9_.:-]+, 1 to 64 characters",
         _BEDROCK_BLOCKS),
    Rule("bedrock-tool-config", "wire", "a body with toolUse or toolResult blocks defines toolConfig",
         ("test_bedrock_request",)),
    Rule("bedrock-reasoning-signed", "wire", "every reasoningText of the latest assistant message carries its "
         "signature", _BEDROCK_BLOCKS),
    Rule("bedrock-reasoning-as-sent", "wire", "the latest assistant message's reasoning comes back as sent: each "
         "block its own text and signature, redacted bytes byte for byte", _BEDROCK_BLOCKS),
    # AWS Bedrock ConverseStream: the layout the service emits (harness.rules.bedrock_stream).
    Rule("bedrock-stream-events", "wire", "every event one of ConverseStream's event types holding an object",
         ("test_bedrock_event_stream", "test_bedrock_stream_blocks")),
    Rule("bedrock-stream-message-start", "wire", "messageStart with the assistant role opens the stream, once",
         ("test_bedrock_stream_blocks",)),
    Rule("bedrock-stream-blocks", "wire", "blocks keyed by contentBlockIndex from 0: a contentBlockStart only for a "
         "call (toolUse, the union's one member), deltas of one member each, every block stopped before messageStop",
         ("test_bedrock_stream_blocks", "test_transport_streams", "test_stream_turns")),
    Rule("bedrock-stream-end", "wire", "one messageStop with its stopReason, then metadata last with its usage and "
         "metrics", ("test_bedrock_stream_blocks", "test_stream_turns")),
)}
