import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import { LocaleProvider } from "../i18n/i18n";
import { StoryFrame } from "./story-frame";

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
});

describe("StoryFrame", () => {
  it("resolves an accepted answer like the host, then replays the story from the start", async () => {
    const user = userEvent.setup();
    openFrame("/demo?frame#single-select");
    await user.click(screen.getByRole("radio", { name: "pnpm" }));
    await user.click(screen.getByRole("button", { name: "Submit" }));
    expect(await screen.findByText("The host resolved the request: answered.")).toBeInTheDocument();
    expect(screen.queryByRole("radio", { name: "pnpm" })).not.toBeInTheDocument();
    expect(sessionStorage.getItem("parley.question-draft.demo-single-select")).toBeNull();
    await user.click(screen.getByRole("button", { name: "Replay story" }));
    expect(screen.getByRole("radio", { name: "pnpm" })).not.toBeChecked();
  });

  it("shows the second queued request once the first is answered", async () => {
    const user = userEvent.setup();
    openFrame("/demo?frame#two-queued");
    expect(screen.getByText("Request 1 of 2")).toBeInTheDocument();
    await user.click(screen.getByRole("radio", { name: "pnpm" }));
    await user.click(screen.getByRole("button", { name: "Submit" }));
    expect(await screen.findByRole("region", { name: "Where should the sessions be stored?" })).toBeInTheDocument();
    expect(screen.queryByText("Request 1 of 2")).not.toBeInTheDocument();
  });

  it("keeps the request and its drafts when the reply in the address is not-pending", async () => {
    const user = userEvent.setup();
    openFrame("/demo?frame&reply=not-pending#optionless");
    await user.type(screen.getByRole("textbox", { name: "Type your answer" }), "Parley");
    await user.click(screen.getByRole("button", { name: "Submit" }));
    expect(await screen.findByText(/question response rejected: not-pending/)).toBeInTheDocument();
    expect(screen.getByRole("textbox", { name: "Type your answer" })).toHaveValue("Parley");
  });
});
