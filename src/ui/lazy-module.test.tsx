import { Suspense } from "react";
import { describe, expect, it } from "vitest";
import { render, screen } from "@testing-library/react";
import { lazyModule } from "./lazy-module";

const Greeting = ({ name }: { name: string }) => <p>Hello {name}</p>;
const Farewell = ({ name }: { name: string }) => <p>Goodbye {name}</p>;

function shown(element: React.ReactNode): string {
  const { container } = render(<Suspense fallback={<p>Loading</p>}>{element}</Suspense>);
  return container.textContent ?? "";
}

describe("lazyModule", () => {
  it("renders a preloaded module's components in their first render, without the fallback", async () => {
    let loads = 0;
    const cards = lazyModule(async () => {
      loads++;
      return { Greeting, Farewell };
    });
    const LazyGreeting = cards.component((module) => module.Greeting);
    const LazyFarewell = cards.component((module) => module.Farewell);
    expect(await cards.preload()).toEqual({ Greeting, Farewell });
    expect(shown(<LazyGreeting name="Ada" />)).toBe("Hello Ada");
    expect(shown(<LazyFarewell name="Ada" />)).toBe("Goodbye Ada");
    expect(loads).toBe(1);
  });

  it("loads on first render when nothing preloaded it, showing the fallback until then", async () => {
    const cards = lazyModule(async () => ({ Greeting }));
    const LazyGreeting = cards.component((module) => module.Greeting);
    expect(shown(<LazyGreeting name="Lin" />)).toBe("Loading");
    expect(await screen.findByText("Hello Lin")).toBeInTheDocument();
  });

  it("forgets a failed load, so the next preload tries again", async () => {
    let attempt = 0;
    const cards = lazyModule(async () => {
      attempt++;
      if (attempt === 1) throw new Error("offline");
      return { Greeting };
    });
    await expect(cards.preload()).rejects.toThrow("offline");
    expect(await cards.preload()).toEqual({ Greeting });
    expect(attempt).toBe(2);
    const LazyGreeting = cards.component((module) => module.Greeting);
    expect(shown(<LazyGreeting name="Noor" />)).toBe("Hello Noor");
  });
});
