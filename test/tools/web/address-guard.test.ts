import { describe, expect, it } from "vitest";
import { forbiddenAddressReason } from "../../../src/tools/web/address-guard.js";

describe("forbiddenAddressReason", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.8.9.10", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "link-local"],
    ["100.64.0.1", "carrier-grade NAT"],
    ["100.127.255.255", "carrier-grade NAT"],
    ["0.0.0.0", "unspecified"],
    ["224.0.0.1", "multicast"],
    ["255.255.255.255", "reserved"],
    ["::", "unspecified"],
    ["::1", "loopback"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local"],
    ["febf::1", "link-local"],
    ["fc00::1", "unique-local"],
    ["fd12:3456::1", "unique-local"],
    ["ff02::1", "multicast"],
    // IPv6 forms that carry an IPv4 address are judged by it.
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:a9fe:a9fe", "link-local"],
    ["0:0:0:0:0:ffff:10.0.0.1", "private"],
    ["::ffff:0:192.168.0.1", "private"],
    ["::127.0.0.1", "loopback"],
    ["64:ff9b::169.254.169.254", "link-local"],
    ["2002:7f00:1::", "loopback"],
    ["2002:c0a8:101::1", "private"],
  ])("refuses %s (%s)", (address, what) => {
    expect(forbiddenAddressReason(address)).toContain(what);
  });

  it.each(["93.184.216.34", "8.8.8.8", "172.32.0.1", "100.128.0.1", "192.169.0.1", "2606:4700::1111", "::ffff:8.8.8.8", "2002:808:808::"])(
    "lets the public address %s through",
    (address) => {
      expect(forbiddenAddressReason(address)).toBeUndefined();
    },
  );

  it("refuses what is not an address at all", () => {
    expect(forbiddenAddressReason("example.com")).toContain("not an IP address");
  });
});
