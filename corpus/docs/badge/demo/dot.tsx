import React from 'react';
import { Badge } from 'my-design';

export default () => (
    <Badge dot count={1}>
        <a href="#inbox">Inbox</a>
    </Badge>
);
