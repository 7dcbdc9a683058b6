/** Sample printer bodies, and a throwaway self-signed CA certificate (EC P-256, CN "Printyard Test CA") for `ca` fields. */
export const TEST_CA_PEM = `-----BEGIN CERTIFICATE-----
MIIBjjCCATWgAwIBAgIUem7bUKnnkJuhJyppwMgSnp/jOUowCgYIKoZIzj0EAwIw
HDEaMBgGA1UEAwwRUHJpbnR5YXJkIFRlc3QgQ0EwIBcNMjYxMTIyMDU1NTE4WhgP
MjEyNjEwMjkwNTU1MThaMBwxGjAYBgNVBAMMEVByaW50eWFyZCBUZXN0IENBMFkw
EwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEnhOUxSMsAhdh+TqJj2nc/+kPhdPVDK1I
IuoLeNkbU6aZjHRNLI0bjXz9Zq9sY2P6UPKYs1QFi4WtpXWw3HC+5aNTMFEwHQYD
VR0OBBYEFLbqxFqm7FMM9QRMU6LcHjjFBzigMB8GA1UdIwQYMBaAFLbqxFqm7FMM
9QRMU6LcHjjFBzigMA8GA1UdEwEB/wQFMAMBAf8wCgYIKoZIzj0EAwIDRwAwRAIg
HVLqHRABhUnPP/Lr1lXTTIRSsDu5PQipXBt29IUJHwACIDYctpJtHMh5lA3gEyRn
1/CywZiDOcuRJoLy6jSF3EEZ
-----END CERTIFICATE-----
`;

export const marlinInput = (overrides: Record<string, unknown> = {}) => ({
  name: 'Prusa MK3',
  type: 'marlin-serial',
  connection: { port: '/dev/serial/by-id/usb-Prusa_Research_Original_Prusa_i3_MK3_CZPX1234-if00' },
  ...overrides,
});

export const bambuInput = (overrides: Record<string, unknown> = {}) => ({
  name: 'P1S left',
  type: 'bambu-lan',
  model: 'P1S',
  connection: { host: '192.168.1.50', serial: '01P00A123456789', access_code: 'a7K2m9Q4' },
  ...overrides,
});
