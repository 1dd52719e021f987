import "@testing-library/jest-dom/vitest";
import { afterEach } from "vitest";
import { cleanup, configure } from "@testing-library/react";

// A loaded machine takes seconds to load a lazy chunk or settle a render; every wait is for a state.
configure({ asyncUtilTimeout: 10_000 });

afterEach(() => {
  cleanup();
  sessionStorage.clear();
  localStorage.clear();
});
