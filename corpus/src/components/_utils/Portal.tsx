import React from 'react';
import ReactDOM from 'react-dom';
import { useConfig } from './ConfigContext';

export interface PortalProps {
    children: React.ReactNode;
    /** Element to mount into. Defaults to the ConfigContext container, then `document.body`. */
    getContainer?: () => HTMLElement;
}

/**
 * Render children into a container outside the parent DOM tree.
 * Renders nothing during server-side rendering.
 */
export function Portal(props: PortalProps) {
    const { children, getContainer } = props;
    const config = useConfig();
    const [container, setContainer] = React.useState<HTMLElement | null>(null);

    React.useEffect(() => {
        const resolve = getContainer ?? config.getPopupContainer;
        setContainer(resolve ? resolve() : document.body);
    }, [getContainer, config.getPopupContainer]);

    return container ? ReactDOM.createPortal(children, container) : null;
}
