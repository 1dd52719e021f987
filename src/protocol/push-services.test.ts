import { expect, it } from "vitest";
import { takesSilentPushes } from "./push-services";

it("takes Apple's push service (and only it) for one that counts pushes ending without a notification", () => {
  const endpoints = [
    "https://web.push.apple.com/QGuQyavXutnMfYyEVzhiJp",
    "https://WEB.PUSH.APPLE.COM./x",
    "https://api.push.apple.com/x",
    "https://fcm.googleapis.com/fcm/send/abc",
    "https://updates.push.services.mozilla.com/wpush/v2/x",
    "https://push.apple.com.example.net/x",
    "https://notpush.apple.com/x",
  ];
  expect(endpoints.map(takesSilentPushes)).toEqual([false, false, false, true, true, true, true]);
});
