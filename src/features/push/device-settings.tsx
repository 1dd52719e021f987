export function DeviceSettings() {
  return null;
}
