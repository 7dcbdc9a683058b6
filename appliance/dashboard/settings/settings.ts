/**
 * The dashboard's configuration as features see it: typed values (file, then environment
 * overrides, validated at start) and a write-back for changes made through the API. The file
 * (`<data-dir>/config.json`) and its schema live beside this in settings/.
 */
export interface DashboardSettings {
  box: {
    /** What people call the box: the web UI's title, the mDNS announcement. */
    name: string;
  };
  mdns: {
    /** Announce the box (and its slicer service) on the LAN and browse for other boxes. */
    enabled: boolean;
  };
  auth: {
    /** Lifetime of a session token, jose/vercel-ms style: `24h`, `30m`, `7d`. */
    token_expiry: string;
  };
  rate_limit: {
    enabled: boolean;
    per_minute: number;
    per_second: number;
  };
  slicer_service: {
    enabled: boolean;
    url: string;
    token: string;
  };
  inventory: {
    /** Spools with this many grams left or fewer are running low. */
    low_stock_g: number;
    /** /api/v1 without credentials for clients on the local network (Moonraker sends none). */
    spoolman_open_lan: boolean;
    currency: string;
    electricity_price_kwh: number;
    /** Default power of a printer while printing; per printer: inventory/cost/printer-watts.ts. */
    printer_watts: number;
    machine_hour_rate: number;
  };
  slicing: {
    /** Largest G-code file the built-in engine may write for one slice. */
    max_output_mb: number;
    /** Free space a slice leaves on the data directory's disk, where every state file lives. */
    min_free_mb: number;
  };
  dashboard: {
    /** Base URL of the web UI for links printed on labels; empty: the request's host. */
    public_url: string;
  };
  automation: {
    /** The Node-RED editor's address as browsers reach it; empty: the dashboard's host, port 1880. */
    node_red_url: string;
  };
  queue: {
    /** Upload-and-start attempts of one dispatch before the copy fails. */
    dispatch_attempts: number;
    /** Delay before the second attempt; it doubles for each further one (at most a minute). */
    retry_delay_ms: number;
    /** A dispatch round runs at least this often, whatever happens. */
    round_interval_s: number;
  };
  model_provider: {
    /** Offer the remote text-to-3D generator (only with an API key). */
    enabled: boolean;
    kind: 'meshy';
    url: string;
    api_key: string;
    /** A job's whole wait for the provider: task creation, generation and download. */
    timeout_s: number;
    poll_interval_s: number;
  };
  mqtt: {
    enabled: boolean;
    /** mqtt:// or mqtts:// (TLS). */
    url: string;
    username: string;
    password: string;
    base_topic: string;
    discovery_prefix: string;
    /** States retained; discovery configs and availability are always retained. */
    retain: boolean;
    /** Offer pause/resume/stop buttons and act on their commands. */
    buttons: boolean;
    /** The role a command from the broker acts as. */
    command_role: 'view' | 'print' | 'admin';
    /** A printer's state goes out at most this often. */
    min_interval_ms: number;
  };
  gpio: {
    /** The chip implementation (read at start). */
    type: 'onoff' | 'simulated';
    /** Where the GPIO chips' base numbers and labels are read. */
    sysfs_root: string;
    /** The header chip's label; empty for the Raspberry Pi ones. */
    chip_label: string;
  };
}

/** Nested partial for updates: only the keys present change. */
export type SettingsPatch = { [S in keyof DashboardSettings]?: Partial<DashboardSettings[S]> };

export interface Settings {
  /** The effective values (file + environment), after validation. */
  readonly current: DashboardSettings;
  /** The values of the config file alone, before the environment's overrides. */
  readonly saved: DashboardSettings;
  /** The keys the environment sets: they win over the file whatever an update writes there. */
  readonly overrides: SettingsPatch;
  /**
   * Validates and applies a patch, and writes it to the config file atomically. Keys overridden
   * by the environment stay effective as the environment says, but the file keeps the new value.
   * Throws AppError ERR_VALIDATION (400) naming the bad key.
   */
  update(patch: SettingsPatch): Promise<DashboardSettings>;
  /** Called after every successful update; returns the unsubscribe function. */
  onChange(listener: (current: DashboardSettings) => void): () => void;
}
