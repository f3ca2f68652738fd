/** The server version reported by /health and rpt_version_info. */
export const VERSION = '0.1.0';
