import type React from 'react';

/** Props every my-design component accepts on its root element. */
export interface CommonProps {
    /** Extra class names for the root element. */
    className?: string;
    /** Inline style of the root element. */
    style?: React.CSSProperties;
}
