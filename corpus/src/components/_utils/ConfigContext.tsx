import React from 'react';
import type { Size } from './constants';

/**
 * Strings every component may read from the nearest provider. Components
 * merge these over their own English defaults, key by key.
 */
export interface LocaleStrings {
    code: string;
    Table?: Partial<Record<string, string>>;
    Pagination?: Partial<Record<string, string>>;
    Select?: Partial<Record<string, string>>;
    DatePicker?: Partial<Record<string, string>>;
    Modal?: Partial<Record<string, string>>;
    Empty?: Partial<Record<string, string>>;
}

export interface ConfigContextValue {
    /** Default `size` for components that support it. */
    size?: Size;
    /** Locale strings and formatting rules. */
    locale?: LocaleStrings;
    /** Text direction of the application. */
    direction?: 'ltr' | 'rtl';
    /** Where popups (Tooltip, Select, DatePicker) are mounted. */
    getPopupContainer?: () => HTMLElement;
}

export const ConfigContext = React.createContext<ConfigContextValue>({});

export function useConfig(): ConfigContextValue {
    return React.useContext(ConfigContext);
}
