import Tabs from './Tabs';
import TabPane from './TabPane';

type TabsComponent = typeof Tabs & { TabPane: typeof TabPane };

const ExportedTabs = Tabs as TabsComponent;
ExportedTabs.TabPane = TabPane;

export default ExportedTabs;
export { TabPane };
export type { TabsProps, TabItem } from './Tabs';
export type { TabPaneProps } from './TabPane';
