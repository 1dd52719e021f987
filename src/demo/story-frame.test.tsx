import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import { LocaleProvider } from "../i18n/i18n";
import { StoryFrame } from "./story-frame";

/** The panel's code loads lazily; on a busy machine the first story takes a while to show. */
const SHOWN = { timeout: 5000 };

function openFrame(address: string) {
  window.history.replaceState(null, "", address);
  return render(
    <LocaleProvider initial="en">
      <StoryFrame />
    </LocaleProvider>,
  );
}

afterEach(() => {
  window.history.replaceState(null, "", "/");
  sessionStorage.clear();
});

/** Each test renders the whole preview; on a busy machine that alone can outlast the default 5 s. */
const BUSY = { timeout: 20_000 };

describe("StoryFrame", BUSY, () => {
  it("resolves an accepted answer through the fake host's frames, then replays the story from the start", async () => {
    const user = userEvent.setup();
    openFrame("/demo?frame#single-select");
    // A pick on a lone single-select question answers it.
    await user.click(await screen.findByRole("radio", { name: "pnpm" }, SHOWN));
    expect(await screen.findByText("The host resolved the request: answered.", {}, SHOWN)).toBeInTheDocument();
    expect(screen.queryByRole("radio", { name: "pnpm" })).not.toBeInTheDocument();
    expect(sessionStorage.getItem("parley.question-draft.demo-single-select")).toBeNull();
    expect(screen.getByRole("textbox", { name: "Message" })).toBeVisible();
    await user.click(screen.getByRole("button", { name: "Replay story" }));
    expect(await screen.findByRole("radio", { name: "pnpm" }, SHOWN)).not.toBeChecked();
  });

  it("shows the second queued request once the first is answered", async () => {
    const user = userEvent.setup();
    openFrame("/demo?frame#two-queued");
    expect(await screen.findByText("Request 1 of 2", {}, SHOWN)).toBeInTheDocument();
    await user.click(screen.getByRole("radio", { name: "pnpm" }));
    await user.click(screen.getByRole("button", { name: "Submit" }));
    expect(await screen.findByRole("region", { name: "Where should the sessions be stored?" }, SHOWN)).toBeInTheDocument();
    expect(screen.queryByText("Request 1 of 2")).not.toBeInTheDocument();
  });

  it("keeps the request and its drafts when the reply in the address is not-pending, and says why", async () => {
    const user = userEvent.setup();
    openFrame("/demo?frame&reply=not-pending#optionless");
    await user.type(await screen.findByRole("textbox", { name: "Type your answer" }, SHOWN), "Parley");
    await user.click(screen.getByRole("button", { name: "Submit" }));
    expect(await screen.findByText("question response rejected: not-pending", {}, SHOWN)).toBeInTheDocument();
    expect(screen.getByRole("textbox", { name: "Type your answer" })).toHaveValue("Parley");
  });

  it("runs a story's step on the panel it shows: the dismiss confirmation opens by itself", async () => {
    openFrame("/demo?frame#dismiss-confirmation");
    expect(await screen.findByText("Discard your answers?", {}, SHOWN)).toBeInTheDocument();
  });

  it("shows the notice the store keeps when another tab answered first, and the outcome once it is dismissed", async () => {
    const user = userEvent.setup();
    openFrame("/demo?frame#answered-elsewhere");
    const notice = await screen.findByRole("region", { name: "Answered in another tab" }, SHOWN);
    expect(notice).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Dismiss" }));
    expect(await screen.findByText("The host resolved the request: answered.", {}, SHOWN)).toBeInTheDocument();
  });

  it("says when the address names no story, and lists every story there is, instead of opening another", async () => {
    openFrame("/demo?frame#no-such-story");
    const notice = await screen.findByRole("alert");
    expect(notice).toHaveTextContent("There is no story “no-such-story”.");
    expect(screen.getByRole("link", { name: "approval" })).toHaveAttribute("href", "#approval");
    expect(screen.queryByRole("textbox", { name: "Message" })).not.toBeInTheDocument();
  });

  it("shows the problems of edited arguments in place of the slot, 1 problem in the singular", async () => {
    const edit = JSON.stringify({ questions: [{ id: "pkg", question: "" }] });
    openFrame(`/demo?frame&edit=${encodeURIComponent(edit)}#single-select`);
    const errors = await screen.findByRole("alert");
    expect(errors).toHaveTextContent("1 problem: the host would refuse this input.");
    expect(errors).toHaveTextContent("questions.0.question");
    expect(screen.getByRole("textbox", { name: "Message", hidden: true })).not.toBeVisible();
  });

  it("shows the host-restarted notice after the fake host restarts under a new host id", async () => {
    openFrame("/demo?frame#host-restarted");
    expect(await screen.findByRole("region", { name: "Host lost: it restarted, and Parley's assistant no longer waits for these answers" }, SHOWN)).toBeInTheDocument();
  });

  it("shows the host-lost notice when the question resolves as a cluster's adoption of its dead host resolves it", async () => {
    openFrame("/demo?frame#retired-host-lost");
    expect(await screen.findByRole("region", { name: "Host lost: the host that held it stopped, and Parley's assistant no longer waits for these answers" }, SHOWN)).toBeInTheDocument();
  });
});

describe("StoryFrame's host controls", BUSY, () => {
  function fromPage(action: string) {
    window.dispatchEvent(new MessageEvent("message", { data: { source: "parley-demo", type: "host", action }, origin: window.location.origin, source: window }));
  }

  it("asks again, answers from another tab and restarts the fake host, each reaching the panel through frames", async () => {
    const user = userEvent.setup();
    openFrame("/demo?frame#single-select");
    await screen.findByRole("radio", { name: "pnpm" }, SHOWN);
    fromPage("answer-elsewhere");
    expect(await screen.findByText("The host resolved the request: answered.", {}, SHOWN)).toBeInTheDocument();
    fromPage("ask");
    await user.type(await screen.findByRole("textbox", { name: "Type your answer" }, SHOWN), "npm 11");
    fromPage("restart");
    expect(await screen.findByRole("region", { name: "Host lost: it restarted, and Parley's assistant no longer waits for these answers" }, SHOWN)).toBeInTheDocument();
    expect(screen.getByText("npm 11")).toBeInTheDocument();
  });
});
