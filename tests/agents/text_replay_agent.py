"""An agent in the style of code-and-text agent frameworks: it replays tool rounds as text, ends only by a tool.

    python text_replay_agent.py --base-url URL --session ID PROMPT

Nothing in it is wrong on the wire, and no provider refuses what it sends;
it simply works another way than a chat-completions agent:

- the prompt goes out wrapped in a template ("New task: ...");
- a tool round goes back as text: an assistant message "Calling tools: [...]"
  and a user message "Observation: ...", never as ``tool_calls`` and ``tool``
  messages;
- it ends a turn only through its own ``final_answer`` tool; a plain-text
  answer is put back with a reminder and the model asked again (up to
  MAX_STEPS, then the last text is the answer).

The conversation is kept per ``--session`` under ``$AGENT_STATE_DIR`` (default:
the temporary directory), so each turn replays the earlier ones.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from pathlib import Path

import httpx

MAX_STEPS = 4
SCHEMA = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
TOOLS = [{"type": "function", "function": {"name": "get_weather", "description": "Weather in a city",
                                           "parameters": SCHEMA}},
         {"type": "function", "function": {"name": "final_answer", "description": "End the task with the answer",
                                           "parameters": {"type": "object", "properties": {
                                               "answer": {"type": "string"}}, "required": ["answer"]}}}]


def stream_round(client: httpx.Client, messages: list[dict]) -> tuple[str, list[dict]]:
    """One streamed completion: its text and its calls, fragments joined by index and id."""
    body = {"model": "m", "stream": True, "messages": messages, "tools": TOOLS}
    text, calls, open_at = [], [], {}
    with client.stream("POST", "/chat/completions", json=body) as response:
        response.raise_for_status()
        for line in response.iter_lines():
            data = line.removeprefix("data:").strip()
            if not line.startswith("data:") or data == "[DONE]":
                continue
            event = json.loads(data)
            if "error" in event:
                raise RuntimeError(f"the stream failed: {event['error']}")
            for choice in event.get("choices") or ():
                delta = choice.get("delta") or {}
                text.append(delta.get("content") or "")
                for fragment in delta.get("tool_calls") or ():
                    # A fragment continues the call open at its index; a new id there starts another call.
                    index = fragment.get("index", 0)
                    if fragment.get("id") and (index not in open_at or open_at[index]["id"] != fragment["id"]):
                        open_at[index] = {"id": fragment["id"], "name": "", "arguments": ""}
                        calls.append(open_at[index])
                    call = open_at[index]
                    function = fragment.get("function") or {}
                    call["name"] += function.get("name") or ""
                    call["arguments"] += function.get("arguments") or ""
    return "".join(text), calls


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--session", required=True)
    parser.add_argument("prompt")
    args = parser.parse_args()
    state = Path(os.environ.get("AGENT_STATE_DIR") or tempfile.gettempdir()) / f"text-agent-{args.session}.json"
    messages = json.loads(state.read_text(encoding="utf-8")) if state.exists() else [
        {"role": "system", "content": "You are an agent. Use your tools; end with final_answer."}]
    state.parent.mkdir(parents=True, exist_ok=True)
    messages.append({"role": "user", "content": f"New task:\n{args.prompt}"})
    answer = None
    try:
        with httpx.Client(base_url=args.base_url, timeout=30) as client:
            for _ in range(MAX_STEPS):
                text, calls = stream_round(client, messages)
                if not calls:
                    messages += [{"role": "assistant", "content": text},
                                 {"role": "user", "content": "Error: no tool was called. Call final_answer."}]
                    answer = text
                    continue
                shown = [{"id": c["id"], "name": c["name"], "arguments": c["arguments"]} for c in calls]
                messages.append({"role": "assistant", "content": f"{text}\nCalling tools:\n{json.dumps(shown)}"})
                final = next((c for c in calls if c["name"] == "final_answer"), None)
                if final is not None:
                    answer = json.loads(final["arguments"] or "{}").get("answer", "")
                    break
                results = [f"{c['name']}({c['arguments']}) -> 18 °C, clear" for c in calls]
                messages.append({"role": "user", "content": "Observation:\n" + "\n".join(results)})
    except (httpx.HTTPError, RuntimeError) as exc:
        print(f"agent: {exc}")
        messages.pop()  # the failed turn is not history
        state.write_text(json.dumps(messages), encoding="utf-8")
        return 1
    state.write_text(json.dumps(messages), encoding="utf-8")
    print(answer)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
