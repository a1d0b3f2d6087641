import React from 'react';
import { Badge, Avatar } from 'my-design';

export default () => (
    <div style={{ display: 'flex', gap: 24 }}>
        <Badge count={120}>
            <Avatar>99</Avatar>
        </Badge>
        <Badge count={1200} overflowCount={999}>
            <Avatar>999</Avatar>
        </Badge>
    </div>
);
