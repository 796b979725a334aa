// Fixed test credentials, shared by the harness and the global teardown's secret scan.
export const ADMIN_TOKEN = 'test-admin-token-0123456789';
export const TEST_ENCRYPTION_KEY = 'a'.repeat(64);
