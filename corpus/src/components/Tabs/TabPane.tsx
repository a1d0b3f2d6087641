import React from 'react';

export interface TabPaneProps {
    /** Unique key of the tab. */
    itemKey: string;
    /** Label in the tab bar. */
    tab: React.ReactNode;
    icon?: React.ReactNode;
    disabled?: boolean;
    closable?: boolean;
    children?: React.ReactNode;
}

/**
 * Declarative tab. `Tabs` reads the props and renders the bar and panel;
 * this component never renders on its own.
 */
export default function TabPane(_props: TabPaneProps): null {
    return null;
}

TabPane.displayName = 'Tabs.TabPane';
